export type { Processor, CardInput, CardBrand, AuthorizeResult } from './connector.js';
export { createSimulator, TEST_CARDS, AUTHENTICATION_REQUIRED } from './simulator.js';
export { createUnavailableProcessor, PROCESSOR_UNAVAILABLE_MESSAGE } from './unavailable.js';
export { sandboxAchOutcome, type AchOutcome } from './sandbox-bank.js';
export { PROCESSOR_NAMES, createProcessor, defaultProcessorName, type ProcessorName } from './select.js';
export { luhnValid, cardBrand, abaRoutingValid } from './cards.js';
export type { Keyed, CardToken, Decline, BankDebitInput } from './connector.js';
export { processorKey } from './keys.js';
