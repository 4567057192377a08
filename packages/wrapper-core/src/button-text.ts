import { matchLocale, type Locale } from '@remit/contract/locales';

/** The buttons' own text (pay, request payment) in each language. */
const TEXT: Record<Locale, [pay: string, request: string]> = {
  en: ['Pay', 'Request payment'],
  es: ['Pagar', 'Solicitar pago'],
  fr: ['Payer', 'Demander un paiement'],
  de: ['Bezahlen', 'Zahlung anfordern'],
  it: ['Paga', 'Richiedi un pagamento'],
  'pt-BR': ['Pagar', 'Solicitar pagamento'],
  nl: ['Betalen', 'Betaling aanvragen'],
  pl: ['Zapłać', 'Poproś o płatność'],
  sv: ['Betala', 'Begär betalning'],
  ja: ['支払う', '支払いをリクエスト'],
  'zh-Hans': ['付款', '请求付款'],
  ar: ['ادفع', 'اطلب الدفع'],
};

/**
 * A button's text when the page gives none, in the `locale` prop's language; English without one,
 * so the server's render and the browser's hydration agree (neither guesses the browser's language).
 */
export const buttonText = (locale: string | undefined, which: 0 | 1): string => TEXT[(locale && matchLocale(locale)) || 'en'][which];
