import type { merchants } from '../db/schema.js';

/** A merchant as operations see it: everything but the onboarding documents (large JSON that only the owner call reads). */
export type Merchant = Omit<typeof merchants.$inferSelect, 'businessInfo' | 'ownerInfo' | 'processingInfo'>;
