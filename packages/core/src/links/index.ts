export {
  payLinkBody,
  payLinkFields,
  paymentRequestFields,
  deletePayLinkBody,
  paymentRequestBody,
  customerRequestBody,
  customerIdParams,
  linkIdParams,
  ORDER_ID_MAX,
  INVOICE_NUMBER_MAX,
  type PayLinkInput,
  type DeletePayLinkInput,
  type PaymentRequestInput,
  type CustomerRequestInput,
} from './schemas.js';
export { createPayLink, createPayLinkFor, deletePayLink, LINK_NOT_FOUND, type PayLinkResult, type DeletedPayLink } from './pay-links.js';
export {
  createPaymentRequest,
  createPaymentRequestFor,
  createCustomerRequest,
  type PaymentRequestResult,
  type CustomerRequestResult,
  type RequestOutcome,
} from './payment-requests.js';
export { linkTotals, assertPayable, type LinkTotals, type LinkAmounts } from './totals.js';
export { payLinkUrl, ORDER_CREATED_FROM, type LinkKind } from './open-link.js';
