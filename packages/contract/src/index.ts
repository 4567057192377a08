/**
 * `@remit/contract`: every wire shape of Remit, declared once. The server validates with these
 * schemas and generates its OpenAPI document from them; the SDK and every front end take their
 * types from here. Imports nothing from Node or any framework, so a browser bundle can use it.
 */
export * from './envelope.js';
export * from './errors.js';
export * as fields from './fields.js';
export { MAX_AMOUNT_CENTS } from './fields.js';
export * as onboardingFields from './onboarding-fields.js';
export * from './money.js';
export * from './card-rules.js';
export * from './merchants.js';
export * from './verification.js';
export * from './pay-links.js';
export * from './requests.js';
export * from './customers.js';
export * from './transactions.js';
export * from './orders.js';
export * from './preauth.js';
export * from './ach.js';
export * from './webhooks.js';
export * from './events.js';
export * from './sandbox.js';
export * from './portal.js';
export * from './pay-page.js';
export * from './origins.js';
export * from './widgets.js';
export * from './embed.js';
export * from './contrast.js';
export * from './appearance.js';
export { exampleOnboarding } from './onboarding-example.js';
export * from './testing.js';
