export type { Processor, CardInput, CardBrand, AuthorizeResult } from './connector.js';
export { createSimulator, TEST_CARDS, AUTHENTICATION_REQUIRED } from './simulator.js';
export { luhnValid, cardBrand, abaRoutingValid } from './cards.js';
