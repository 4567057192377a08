export { createPayLink, deletePayLink, LINK_NOT_FOUND, type DeletedPayLink } from './pay-links.js';
export {
  createPaymentRequest,
  createCustomerRequest,
  type RequestOutcome,
} from './payment-requests.js';
export { linkTotals, assertPayable, type LinkTotals, type LinkAmounts } from './totals.js';
export { payLinkUrl, ORDER_CREATED_FROM, type LinkKind } from './open-link.js';
export { expireWidgetLinks, isExpired, WIDGET_LINK_TTL_MS } from './expiry.js';
