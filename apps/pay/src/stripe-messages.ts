import type { Locale } from '@remit/contract/locales';

/**
 * What only the Stripe path says, in every language: part of the Stripe chunk (stripe-entry.tsx),
 * so the page's main script (20 KB budget) carries none of it.
 */
export interface StripeMessages {
  fields: string;
  loading: string;
  unavailable: string;
  verifyTitle: string;
  verifyText: string;
  verifyLink: string;
}

export const STRIPE_MESSAGES: Record<Locale, StripeMessages> = {
  en: {
    fields: 'Payment details',
    loading: 'Loading the secure payment fields…',
    unavailable: 'The secure payment fields could not load. Check your connection, then reload this page.',
    verifyTitle: 'Verify your bank account',
    verifyText:
      'A small deposit will reach your bank account in 1–2 business days. When it arrives, confirm it on the verification page with the code or amounts on your statement; your payment completes after that. Do not pay again.',
    verifyLink: 'Open the verification page',
  },
  es: {
    fields: 'Datos de pago',
    loading: 'Cargando los campos de pago seguros…',
    unavailable: 'No se pudieron cargar los campos de pago seguros. Compruebe su conexión y vuelva a cargar esta página.',
    verifyTitle: 'Verifique su cuenta bancaria',
    verifyText:
      'Recibirá un pequeño depósito en su cuenta bancaria en 1–2 días hábiles. Cuando llegue, confírmelo en la página de verificación con el código o los importes de su extracto; después se completará su pago. No vuelva a pagar.',
    verifyLink: 'Abrir la página de verificación',
  },
  fr: {
    fields: 'Informations de paiement',
    loading: 'Chargement des champs de paiement sécurisés…',
    unavailable: 'Les champs de paiement sécurisés n’ont pas pu se charger. Vérifiez votre connexion, puis rechargez cette page.',
    verifyTitle: 'Vérifiez votre compte bancaire',
    verifyText:
      'Un petit virement arrivera sur votre compte bancaire sous 1 à 2 jours ouvrés. À son arrivée, confirmez-le sur la page de vérification avec le code ou les montants de votre relevé ; votre paiement aboutira ensuite. Ne payez pas une seconde fois.',
    verifyLink: 'Ouvrir la page de vérification',
  },
  de: {
    fields: 'Zahlungsdaten',
    loading: 'Die sicheren Zahlungsfelder werden geladen…',
    unavailable: 'Die sicheren Zahlungsfelder konnten nicht geladen werden. Prüfen Sie Ihre Verbindung und laden Sie die Seite neu.',
    verifyTitle: 'Bestätigen Sie Ihr Bankkonto',
    verifyText:
      'In 1–2 Werktagen geht ein kleiner Betrag auf Ihrem Bankkonto ein. Bestätigen Sie ihn dann auf der Bestätigungsseite mit dem Code oder den Beträgen auf Ihrem Kontoauszug; danach wird Ihre Zahlung ausgeführt. Zahlen Sie nicht noch einmal.',
    verifyLink: 'Bestätigungsseite öffnen',
  },
  it: {
    fields: 'Dati di pagamento',
    loading: 'Caricamento dei campi di pagamento sicuri…',
    unavailable: 'Impossibile caricare i campi di pagamento sicuri. Controlla la connessione, poi ricarica questa pagina.',
    verifyTitle: 'Verifica il tuo conto bancario',
    verifyText:
      'Riceverai un piccolo accredito sul tuo conto in 1–2 giorni lavorativi. Quando arriva, confermalo nella pagina di verifica con il codice o gli importi del tuo estratto conto; poi il pagamento verrà completato. Non pagare di nuovo.',
    verifyLink: 'Apri la pagina di verifica',
  },
  'pt-BR': {
    fields: 'Dados de pagamento',
    loading: 'Carregando os campos de pagamento seguros…',
    unavailable: 'Não foi possível carregar os campos de pagamento seguros. Verifique sua conexão e recarregue esta página.',
    verifyTitle: 'Verifique sua conta bancária',
    verifyText:
      'Um pequeno depósito chegará à sua conta em 1 a 2 dias úteis. Quando chegar, confirme-o na página de verificação com o código ou os valores do seu extrato; depois disso seu pagamento será concluído. Não pague novamente.',
    verifyLink: 'Abrir a página de verificação',
  },
  nl: {
    fields: 'Betaalgegevens',
    loading: 'De beveiligde betaalvelden worden geladen…',
    unavailable: 'De beveiligde betaalvelden konden niet laden. Controleer je verbinding en laad deze pagina opnieuw.',
    verifyTitle: 'Verifieer je bankrekening',
    verifyText:
      'Binnen 1–2 werkdagen komt er een klein bedrag op je rekening. Bevestig het dan op de verificatiepagina met de code of de bedragen op je afschrift; daarna wordt je betaling voltooid. Betaal niet nog een keer.',
    verifyLink: 'Open de verificatiepagina',
  },
  pl: {
    fields: 'Dane płatności',
    loading: 'Ładowanie bezpiecznych pól płatności…',
    unavailable: 'Nie udało się załadować bezpiecznych pól płatności. Sprawdź połączenie i odśwież tę stronę.',
    verifyTitle: 'Zweryfikuj swoje konto bankowe',
    verifyText:
      'W ciągu 1–2 dni roboczych na Twoje konto wpłynie drobna kwota. Gdy dotrze, potwierdź ją na stronie weryfikacji kodem lub kwotami z wyciągu; potem płatność zostanie zrealizowana. Nie płać ponownie.',
    verifyLink: 'Otwórz stronę weryfikacji',
  },
  sv: {
    fields: 'Betalningsuppgifter',
    loading: 'De säkra betalningsfälten laddas…',
    unavailable: 'De säkra betalningsfälten kunde inte laddas. Kontrollera anslutningen och ladda om sidan.',
    verifyTitle: 'Verifiera ditt bankkonto',
    verifyText:
      'Inom 1–2 bankdagar kommer en liten insättning till ditt konto. När den har kommit bekräftar du den på verifieringssidan med koden eller beloppen på ditt kontoutdrag; därefter genomförs betalningen. Betala inte igen.',
    verifyLink: 'Öppna verifieringssidan',
  },
  ja: {
    fields: 'お支払い情報',
    loading: '安全な支払い欄を読み込んでいます…',
    unavailable: '安全な支払い欄を読み込めませんでした。接続を確認して、このページを再読み込みしてください。',
    verifyTitle: '銀行口座を確認してください',
    verifyText:
      '1～2営業日以内に、少額の入金が口座に届きます。届いたら、明細に記載されたコードまたは金額を確認ページで入力してください。その後にお支払いが完了します。もう一度支払わないでください。',
    verifyLink: '確認ページを開く',
  },
  'zh-Hans': {
    fields: '付款信息',
    loading: '正在加载安全付款栏…',
    unavailable: '安全付款栏无法加载。请检查网络连接，然后重新加载此页面。',
    verifyTitle: '验证您的银行账户',
    verifyText:
      '1–2 个工作日内，您的账户将收到一笔小额存款。到账后，请在验证页面输入对账单上的代码或金额；之后您的付款即完成。请勿重复付款。',
    verifyLink: '打开验证页面',
  },
  ar: {
    fields: 'بيانات الدفع',
    loading: 'جارٍ تحميل حقول الدفع الآمنة…',
    unavailable: 'تعذّر تحميل حقول الدفع الآمنة. تحقق من اتصالك، ثم أعد تحميل هذه الصفحة.',
    verifyTitle: 'تحقّق من حسابك المصرفي',
    verifyText:
      'سيصل إيداع صغير إلى حسابك المصرفي خلال 1–2 يوم عمل. عند وصوله، أكّده في صفحة التحقق بالرمز أو المبالغ الظاهرة في كشف حسابك؛ وبعدها تكتمل دفعتك. لا تدفع مرة أخرى.',
    verifyLink: 'افتح صفحة التحقق',
  },
};
