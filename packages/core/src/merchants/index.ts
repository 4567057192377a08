export { merchantForKey, merchantForPublicKey, lockMerchant, type Merchant } from './merchant-key.js';
export {
  onboardingSchema,
  onboardMerchant,
  OWNERSHIP_TYPES,
  PRODUCTS_SOLD,
  PROCESSING_ENVIRONMENTS,
  DEFAULT_PRICING,
  type OnboardingInput,
  type OnboardingResult,
} from './onboarding.js';
export { exampleOnboarding } from './onboarding.example.js';
export {
  listMerchants,
  getMerchantForOwner,
  approveMerchant,
  merchantView,
  MERCHANT_NOT_FOUND_MESSAGE,
  type MerchantView,
  type MerchantStatus,
  type ApprovalResult,
} from './merchants.js';
