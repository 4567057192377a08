export {
  merchantForKey,
  merchantForPublicKey,
  merchantWithPublicKey,
  lockMerchant,
  type Merchant,
} from './merchant-key.js';
export { MERCHANT_EPOCH } from './merchant-cache.js';
export { onboardMerchant, DEFAULT_PRICING, type OnboardingResult } from './onboarding.js';
export { exampleOnboarding } from './onboarding.example.js';
export {
  listMerchants,
  getMerchantForOwner,
  approveMerchant,
  merchantView,
  MERCHANT_NOT_FOUND_MESSAGE,
  type MerchantStatus,
  type ApprovalResult,
} from './merchants.js';
export {
  operatorMerchants,
  operatorMerchant,
  suspendMerchant,
  reinstateMerchant,
  type OperatorMerchant,
} from './operator.js';
export { sealOwnerInfo, openOwnerInfo, sealLegacyOwnerInfo, SEALED_OWNER_FIELDS } from './owner-info.js';
export { agreementFor, signAgreement, agreementLink, type AgreementView, type Acceptance } from './agreement.js';
export { verificationView, requireChargesEnabled } from './verification.js';
export {
  createVerificationLink,
  openVerificationLink,
  returnFromVerification,
  submitSandboxVerification,
  VERIFICATION_LINK_DAYS,
  type VerificationPageView,
} from './verification-links.js';
export { setSandboxVerification } from './sandbox-verification.js';
