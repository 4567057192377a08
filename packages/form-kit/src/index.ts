/**
 * `@remit/form-kit`: the form parts the pay page and the portal share, so both read the same way to
 * a customer and to a screen reader. The base CSS is `@remit/form-kit/base.css`; each component
 * brings its own styles when imported. No inline styles anywhere (the pages' CSP forbids them).
 */
export { Field, type FieldProps } from './components/field/field.js';
export { ErrorMessage } from './components/error-message/error-message.js';
export { ErrorSummary, type ErrorSummaryProps } from './components/error-summary/error-summary.js';
export { announce } from './announce/announce.js';
export { request, type ApiResult, type FieldError } from './request/request.js';
