export {
  signIn,
  resumeSession,
  signOut,
  csrfTokenFor,
  csrfTokenMatches,
  type SignedIn,
  type ActiveSession,
} from './sessions.js';
export { signInLimited, type SignInLimit } from './sign-in-limit.js';
export { portalMerchants, portalMerchant, portalOnboard, portalApprove } from './merchants.js';
export { portalWebhook, portalDeliveries, sendTestEvent } from './webhooks.js';
export {
  portalTransactions,
  portalPayLink,
  portalTransactionAction,
  portalAdvanceClock,
  portalSettle,
} from './sandbox-actions.js';
export { portalMessages, portalMessageHtml } from './inbox.js';
