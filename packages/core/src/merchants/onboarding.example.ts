/** The complete, valid onboarding submission lives in the contract (the portal's page uses it too). */
export { exampleOnboarding } from '@remit/contract';
