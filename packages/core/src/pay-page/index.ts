export { payLink, answerChallenge, CHALLENGE_TTL_MS } from './pay.js';
export {
  MERCHANT_CANNOT_PAY_MESSAGE,
  ALREADY_PAID_MESSAGE,
  THREE_DS_FAILED_MESSAGE,
  LINK_PROCESSING_MESSAGE,
} from './payable.js';
export { addCardFromLink } from './add-card.js';
export { payLinkView, addCardView, payPage, maskEmail, type PayPage } from './view.js';
export { payAmounts } from './amounts.js';
export {
  LINK_NOT_FOUND_MESSAGE,
  LINK_CANCELLED_MESSAGE,
  CARD_LINK_NOT_FOUND_MESSAGE,
  CARD_LINK_CANCELLED_MESSAGE,
} from './lookup.js';
export { framingOrigins } from './framing.js';
export { returnFromIssuer, finishIssuerChallenge, type IssuerOutcome } from './issuer-challenge.js';
export {
  linkIntent,
  reportLinkIntent,
  returnToPayPage,
  recordLinkIntent,
  intentTerms,
  type IntentRecord,
} from './stripe-intent.js';
export { cardIntent, reportCardIntent } from './stripe-setup.js';
