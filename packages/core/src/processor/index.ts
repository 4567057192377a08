export type { Processor, CardInput, CardBrand, AuthorizeResult } from './connector.js';
export { createSimulator, TEST_CARDS } from './simulator.js';
export { luhnValid, cardBrand, abaRoutingValid } from './cards.js';
