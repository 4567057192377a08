import type { MailMessages } from './catalogue.js';

/** The messages in Spanish, French, German, Italian, Portuguese (Brazil), Dutch, Polish and Swedish. */

export const es: MailMessages = {
  smsHi: (n) => `Hola ${n}, `,
  hi: (n) => `Hola ${n}:`,
  hello: 'Hola:',
  requestSms: (b, a, pre, f, link) =>
    `${b} le solicita ${pre ? `una autorización de ${a}` : `un pago de ${a}`}${f ? ` por ${f}` : ''}. ${pre ? 'Autorice' : 'Pague'} de forma segura: ${link}`,
  requestSubject: (b, a, pre) => `Solicitud de ${pre ? 'autorización' : 'pago'} de ${b}: ${a}`,
  requested: (b, a, pre) => `${b} le ha solicitado ${pre ? `una autorización de ${a}` : `un pago de ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Autorice' : 'Pague'} de forma segura aquí:`,
  button: (a, pre) => `${pre ? 'Autorizar' : 'Pagar'} ${a}`,
  orOpen: 'O abra este enlace:',
  notExpecting: 'Si no esperaba esta solicitud, puede ignorar este correo.',
  amount: 'Importe',
  for: 'Concepto',
  order: 'Pedido',
  invoice: 'Factura',
  transaction: 'Transacción',
  authCode: 'Código de autorización',
  date: 'Fecha',
  card: 'Tarjeta',
  bankAccount: 'Cuenta bancaria',
  endingIn: (b, l) => `${b} terminada en ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autorización' : 'Recibo'} de ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Autorizó ${a} a ${b}. El importe queda retenido en su tarjeta; aún no se ha cobrado.`
      : s === 'pending'
        ? `Su pago bancario de ${a} a ${b} se ha enviado; se completará cuando su banco apruebe el débito.`
        : `Pagó ${a} a ${b}.`,
  keep: 'Conserve este correo para sus registros.',
  cardSms: (n, b, link) => `Hola ${n}, ${b} le pide que añada una tarjeta para pagos futuros. Añádala de forma segura: ${link}`,
  cardSubject: (b) => `${b} le pide que añada una tarjeta de pago`,
  cardAsk: (b) => `${b} le pide que añada una tarjeta para pagarle en el futuro.`,
  addHere: 'Añádala de forma segura aquí:',
  addButton: 'Añadir su tarjeta de forma segura',
};

export const fr: MailMessages = {
  smsHi: (n) => `Bonjour ${n}, `,
  hi: (n) => `Bonjour ${n},`,
  hello: 'Bonjour,',
  requestSms: (b, a, pre, f, link) =>
    `${b} vous demande ${pre ? `une autorisation de ${a}` : `un paiement de ${a}`}${f ? ` pour ${f}` : ''}. ${pre ? 'Autorisez' : 'Payez'} en toute sécurité : ${link}`,
  requestSubject: (b, a, pre) => `Demande ${pre ? 'd’autorisation' : 'de paiement'} de ${b} : ${a}`,
  requested: (b, a, pre) => `${b} vous demande ${pre ? `une autorisation de ${a}` : `un paiement de ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Autorisez' : 'Payez'} en toute sécurité ici :`,
  button: (a, pre) => `${pre ? 'Autoriser' : 'Payer'} ${a}`,
  orOpen: 'Ou ouvrez ce lien :',
  notExpecting: 'Si vous n’attendiez pas cette demande, vous pouvez ignorer cet e-mail.',
  amount: 'Montant',
  for: 'Objet',
  order: 'Commande',
  invoice: 'Facture',
  transaction: 'Transaction',
  authCode: 'Code d’autorisation',
  date: 'Date',
  card: 'Carte',
  bankAccount: 'Compte bancaire',
  endingIn: (b, l) => `${b} se terminant par ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autorisation' : 'Reçu'} de ${b} : ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Vous avez autorisé ${a} à ${b}. Le montant est bloqué sur votre carte, pas encore débité.`
      : s === 'pending'
        ? `Votre paiement bancaire de ${a} à ${b} a été envoyé ; il aboutira quand votre banque aura approuvé le prélèvement.`
        : `Vous avez payé ${a} à ${b}.`,
  keep: 'Conservez cet e-mail pour vos dossiers.',
  cardSms: (n, b, link) => `Bonjour ${n}, ${b} vous invite à ajouter une carte pour vos prochains paiements. Ajoutez-la en toute sécurité : ${link}`,
  cardSubject: (b) => `${b} vous invite à ajouter une carte de paiement`,
  cardAsk: (b) => `${b} vous invite à ajouter une carte pour le payer à l’avenir.`,
  addHere: 'Ajoutez-la en toute sécurité ici :',
  addButton: 'Ajouter votre carte en toute sécurité',
};

export const de: MailMessages = {
  smsHi: (n) => `Hallo ${n}, `,
  hi: (n) => `Hallo ${n},`,
  hello: 'Guten Tag,',
  requestSms: (b, a, pre, f, link) =>
    `${b} bittet Sie um ${pre ? `eine Autorisierung über ${a}` : `eine Zahlung von ${a}`}${f ? ` für ${f}` : ''}. Sicher ${pre ? 'autorisieren' : 'bezahlen'}: ${link}`,
  requestSubject: (b, a, pre) => `${pre ? 'Autorisierungsanfrage' : 'Zahlungsanforderung'} von ${b}: ${a}`,
  requested: (b, a, pre) => `${b} bittet Sie um ${pre ? `eine Autorisierung über ${a}` : `eine Zahlung von ${a}`}.`,
  secureHere: (pre) => `Hier sicher ${pre ? 'autorisieren' : 'bezahlen'}:`,
  button: (a, pre) => `${a} ${pre ? 'autorisieren' : 'bezahlen'}`,
  orOpen: 'Oder öffnen Sie diesen Link:',
  notExpecting: 'Wenn Sie diese Anfrage nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  amount: 'Betrag',
  for: 'Für',
  order: 'Bestellung',
  invoice: 'Rechnung',
  transaction: 'Transaktion',
  authCode: 'Autorisierungscode',
  date: 'Datum',
  card: 'Karte',
  bankAccount: 'Bankkonto',
  endingIn: (b, l) => `${b} mit der Endung ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autorisierung' : 'Beleg'} von ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Sie haben ${a} an ${b} autorisiert. Der Betrag ist auf Ihrer Karte reserviert, aber noch nicht abgebucht.`
      : s === 'pending'
        ? `Ihre Bankzahlung von ${a} an ${b} wurde übermittelt; sie wird ausgeführt, sobald Ihre Bank die Lastschrift genehmigt.`
        : `Sie haben ${a} an ${b} bezahlt.`,
  keep: 'Bewahren Sie diese E-Mail für Ihre Unterlagen auf.',
  cardSms: (n, b, link) => `Hallo ${n}, ${b} bittet Sie, eine Karte für künftige Zahlungen zu hinterlegen. Sicher hinterlegen: ${link}`,
  cardSubject: (b) => `${b} bittet Sie, eine Zahlungskarte zu hinterlegen`,
  cardAsk: (b) => `${b} bittet Sie, eine Karte zu hinterlegen, um künftig damit zu bezahlen.`,
  addHere: 'Hier sicher hinterlegen:',
  addButton: 'Karte sicher hinterlegen',
};

export const it: MailMessages = {
  smsHi: (n) => `Ciao ${n}, `,
  hi: (n) => `Ciao ${n},`,
  hello: 'Buongiorno,',
  requestSms: (b, a, pre, f, link) =>
    `${b} ti chiede ${pre ? `un’autorizzazione di ${a}` : `un pagamento di ${a}`}${f ? ` per ${f}` : ''}. ${pre ? 'Autorizza' : 'Paga'} in modo sicuro: ${link}`,
  requestSubject: (b, a, pre) => `Richiesta di ${pre ? 'autorizzazione' : 'pagamento'} da ${b}: ${a}`,
  requested: (b, a, pre) => `${b} ti ha chiesto ${pre ? `un’autorizzazione di ${a}` : `un pagamento di ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Autorizza' : 'Paga'} in modo sicuro qui:`,
  button: (a, pre) => `${pre ? 'Autorizza' : 'Paga'} ${a}`,
  orOpen: 'Oppure apri questo link:',
  notExpecting: 'Se non aspettavi questa richiesta, puoi ignorare questa email.',
  amount: 'Importo',
  for: 'Causale',
  order: 'Ordine',
  invoice: 'Fattura',
  transaction: 'Transazione',
  authCode: 'Codice di autorizzazione',
  date: 'Data',
  card: 'Carta',
  bankAccount: 'Conto bancario',
  endingIn: (b, l) => `${b} che termina con ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autorizzazione' : 'Ricevuta'} da ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Hai autorizzato ${a} a ${b}. L’importo è bloccato sulla tua carta, non ancora addebitato.`
      : s === 'pending'
        ? `Il tuo pagamento bancario di ${a} a ${b} è stato inviato; sarà completato quando la tua banca approverà l’addebito.`
        : `Hai pagato ${a} a ${b}.`,
  keep: 'Conserva questa email per i tuoi archivi.',
  cardSms: (n, b, link) => `Ciao ${n}, ${b} ti chiede di aggiungere una carta per i pagamenti futuri. Aggiungila in modo sicuro: ${link}`,
  cardSubject: (b) => `${b} ti chiede di aggiungere una carta di pagamento`,
  cardAsk: (b) => `${b} ti chiede di aggiungere una carta per pagarlo in futuro.`,
  addHere: 'Aggiungila in modo sicuro qui:',
  addButton: 'Aggiungi la tua carta in modo sicuro',
};

export const ptBR: MailMessages = {
  smsHi: (n) => `Olá, ${n}! `,
  hi: (n) => `Olá, ${n},`,
  hello: 'Olá,',
  requestSms: (b, a, pre, f, link) =>
    `${b} solicita ${pre ? `uma autorização de ${a}` : `um pagamento de ${a}`}${f ? ` referente a ${f}` : ''}. ${pre ? 'Autorize' : 'Pague'} com segurança: ${link}`,
  requestSubject: (b, a, pre) => `Solicitação de ${pre ? 'autorização' : 'pagamento'} de ${b}: ${a}`,
  requested: (b, a, pre) => `${b} solicitou ${pre ? `uma autorização de ${a}` : `um pagamento de ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Autorize' : 'Pague'} com segurança aqui:`,
  button: (a, pre) => `${pre ? 'Autorizar' : 'Pagar'} ${a}`,
  orOpen: 'Ou abra este link:',
  notExpecting: 'Se você não esperava esta solicitação, pode ignorar este e-mail.',
  amount: 'Valor',
  for: 'Referente a',
  order: 'Pedido',
  invoice: 'Fatura',
  transaction: 'Transação',
  authCode: 'Código de autorização',
  date: 'Data',
  card: 'Cartão',
  bankAccount: 'Conta bancária',
  endingIn: (b, l) => `${b} final ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autorização' : 'Recibo'} de ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Você autorizou ${a} para ${b}. O valor está reservado no seu cartão e ainda não foi cobrado.`
      : s === 'pending'
        ? `Seu pagamento bancário de ${a} para ${b} foi enviado; ele será concluído quando seu banco aprovar o débito.`
        : `Você pagou ${a} para ${b}.`,
  keep: 'Guarde este e-mail para seus registros.',
  cardSms: (n, b, link) => `Olá, ${n}! ${b} pede que você adicione um cartão para pagamentos futuros. Adicione com segurança: ${link}`,
  cardSubject: (b) => `${b} pede que você adicione um cartão de pagamento`,
  cardAsk: (b) => `${b} pede que você adicione um cartão para pagamentos futuros.`,
  addHere: 'Adicione com segurança aqui:',
  addButton: 'Adicionar seu cartão com segurança',
};

export const nl: MailMessages = {
  smsHi: (n) => `Hallo ${n}, `,
  hi: (n) => `Hallo ${n},`,
  hello: 'Hallo,',
  requestSms: (b, a, pre, f, link) =>
    `${b} vraagt ${pre ? `een autorisatie van ${a}` : `een betaling van ${a}`}${f ? ` voor ${f}` : ''}. Veilig ${pre ? 'autoriseren' : 'betalen'}: ${link}`,
  requestSubject: (b, a, pre) => `${pre ? 'Autorisatieverzoek' : 'Betaalverzoek'} van ${b}: ${a}`,
  requested: (b, a, pre) => `${b} heeft je gevraagd om ${pre ? `een autorisatie van ${a}` : `een betaling van ${a}`}.`,
  secureHere: (pre) => `Hier veilig ${pre ? 'autoriseren' : 'betalen'}:`,
  button: (a, pre) => `${a} ${pre ? 'autoriseren' : 'betalen'}`,
  orOpen: 'Of open deze link:',
  notExpecting: 'Als je dit verzoek niet verwachtte, kun je deze e-mail negeren.',
  amount: 'Bedrag',
  for: 'Voor',
  order: 'Bestelling',
  invoice: 'Factuur',
  transaction: 'Transactie',
  authCode: 'Autorisatiecode',
  date: 'Datum',
  card: 'Kaart',
  bankAccount: 'Bankrekening',
  endingIn: (b, l) => `${b} eindigend op ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autorisatie' : 'Bon'} van ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Je hebt ${a} aan ${b} geautoriseerd. Het bedrag is op je kaart gereserveerd, nog niet afgeschreven.`
      : s === 'pending'
        ? `Je bankbetaling van ${a} aan ${b} is ingediend; die wordt voltooid zodra je bank de afschrijving goedkeurt.`
        : `Je hebt ${a} betaald aan ${b}.`,
  keep: 'Bewaar deze e-mail voor je administratie.',
  cardSms: (n, b, link) => `Hallo ${n}, ${b} vraagt je een kaart toe te voegen voor toekomstige betalingen. Voeg hem veilig toe: ${link}`,
  cardSubject: (b) => `${b} vraagt je een betaalkaart toe te voegen`,
  cardAsk: (b) => `${b} vraagt je een kaart toe te voegen om in de toekomst mee te betalen.`,
  addHere: 'Voeg hem hier veilig toe:',
  addButton: 'Je kaart veilig toevoegen',
};

export const pl: MailMessages = {
  smsHi: (n) => `Dzień dobry, ${n}! `,
  hi: (n) => `Dzień dobry, ${n},`,
  hello: 'Dzień dobry,',
  requestSms: (b, a, pre, f, link) =>
    `${b} prosi o ${pre ? `autoryzację kwoty ${a}` : `płatność ${a}`}${f ? ` za: ${f}` : ''}. ${pre ? 'Autoryzuj' : 'Zapłać'} bezpiecznie: ${link}`,
  requestSubject: (b, a, pre) => `Prośba o ${pre ? 'autoryzację' : 'płatność'} od ${b}: ${a}`,
  requested: (b, a, pre) => `${b} prosi o ${pre ? `autoryzację kwoty ${a}` : `płatność ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Autoryzuj' : 'Zapłać'} bezpiecznie tutaj:`,
  button: (a, pre) => `${pre ? 'Autoryzuj' : 'Zapłać'} ${a}`,
  orOpen: 'Lub otwórz ten link:',
  notExpecting: 'Jeśli nie spodziewałeś się tej prośby, możesz zignorować tę wiadomość.',
  amount: 'Kwota',
  for: 'Tytułem',
  order: 'Zamówienie',
  invoice: 'Faktura',
  transaction: 'Transakcja',
  authCode: 'Kod autoryzacji',
  date: 'Data',
  card: 'Karta',
  bankAccount: 'Konto bankowe',
  endingIn: (b, l) => `${b} kończąca się na ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Autoryzacja' : 'Potwierdzenie'} od ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Autoryzowano kwotę ${a} dla ${b}. Kwota jest zablokowana na karcie, jeszcze nie została pobrana.`
      : s === 'pending'
        ? `Twoja płatność bankowa ${a} dla ${b} została wysłana; zostanie zrealizowana, gdy bank zatwierdzi obciążenie.`
        : `Zapłacono ${a} dla ${b}.`,
  keep: 'Zachowaj tę wiadomość na przyszłość.',
  cardSms: (n, b, link) => `Dzień dobry, ${n}! ${b} prosi o dodanie karty do przyszłych płatności. Dodaj ją bezpiecznie: ${link}`,
  cardSubject: (b) => `${b} prosi o dodanie karty płatniczej`,
  cardAsk: (b) => `${b} prosi o dodanie karty, aby w przyszłości płacić za jej pomocą.`,
  addHere: 'Dodaj ją bezpiecznie tutaj:',
  addButton: 'Bezpiecznie dodaj kartę',
};

export const sv: MailMessages = {
  smsHi: (n) => `Hej ${n}! `,
  hi: (n) => `Hej ${n},`,
  hello: 'Hej,',
  requestSms: (b, a, pre, f, link) =>
    `${b} begär ${pre ? `en auktorisering på ${a}` : `en betalning på ${a}`}${f ? ` för ${f}` : ''}. ${pre ? 'Auktorisera' : 'Betala'} säkert: ${link}`,
  requestSubject: (b, a, pre) => `${pre ? 'Auktoriseringsbegäran' : 'Betalningsbegäran'} från ${b}: ${a}`,
  requested: (b, a, pre) => `${b} har begärt ${pre ? `en auktorisering på ${a}` : `en betalning på ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Auktorisera' : 'Betala'} säkert här:`,
  button: (a, pre) => `${pre ? 'Auktorisera' : 'Betala'} ${a}`,
  orOpen: 'Eller öppna den här länken:',
  notExpecting: 'Om du inte väntade dig den här begäran kan du bortse från mejlet.',
  amount: 'Belopp',
  for: 'Avser',
  order: 'Beställning',
  invoice: 'Faktura',
  transaction: 'Transaktion',
  authCode: 'Auktoriseringskod',
  date: 'Datum',
  card: 'Kort',
  bankAccount: 'Bankkonto',
  endingIn: (b, l) => `${b} som slutar på ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Auktorisering' : 'Kvitto'} från ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `Du har auktoriserat ${a} till ${b}. Beloppet är reserverat på ditt kort men ännu inte draget.`
      : s === 'pending'
        ? `Din bankbetalning på ${a} till ${b} har skickats; den genomförs när din bank godkänner dragningen.`
        : `Du har betalat ${a} till ${b}.`,
  keep: 'Spara mejlet för din bokföring.',
  cardSms: (n, b, link) => `Hej ${n}! ${b} ber dig lägga till ett kort för framtida betalningar. Lägg till det säkert: ${link}`,
  cardSubject: (b) => `${b} ber dig lägga till ett betalkort`,
  cardAsk: (b) => `${b} ber dig lägga till ett kort för att betala dem i framtiden.`,
  addHere: 'Lägg till det säkert här:',
  addButton: 'Lägg till ditt kort säkert',
};
