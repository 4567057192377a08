import * as z from 'zod';
import { envelope } from './envelope.js';
import { merchantKey } from './fields.js';

/**
 * What the processor still needs from a merchant (Stripe's `account.requirements` and
 * `future_requirements`), as `verification` on `GET /merchant`, the `merchant.verification`
 * webhook, `POST /merchant/verification-link` and `POST /sandbox/merchant-verification`.
 */

export const VERIFICATION_STATUSES = [
  'action_required',
  'pending_review',
  'complete',
  'restricted',
  'rejected',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** One thing asked for: Stripe's name (look it up in Stripe's docs) and a plain-language label for people. */
export const requirementSchema = z.object({
  requirement: z.string().describe("Stripe's requirement name, e.g. `individual.verification.document`"),
  label: z.string().describe('What it is, in plain English, e.g. "Identity document of the owner"'),
});
export type Requirement = z.infer<typeof requirementSchema>;

export const requirementErrorSchema = requirementSchema.extend({
  code: z
    .string()
    .describe("Stripe's error code (an open set: Stripe adds values), e.g. `verification_document_expired`"),
  reason: z.string().describe("Stripe's explanation, for people"),
});
export type RequirementError = z.infer<typeof requirementErrorSchema>;

export const verificationSchema = z
  .object({
    status: z
      .enum(VERIFICATION_STATUSES)
      .describe(
        '`action_required`: something is due (see currently_due, past_due, errors); `pending_review`: nothing is due, the processor is reviewing; `complete`: charges enabled and nothing due; `restricted`: an approved merchant whose charges the processor holds off (payments answer 409 merchant_restricted); `rejected`: the processor refused the account',
      ),
    currently_due: z.array(requirementSchema).describe('Due by `deadline`'),
    eventually_due: z.array(requirementSchema).describe('Due later, when thresholds are reached'),
    past_due: z.array(requirementSchema).describe('Overdue: charges or payouts may be held off until sent'),
    pending_verification: z.array(requirementSchema).describe('Sent and being verified'),
    errors: z.array(requirementErrorSchema).describe('What was sent and refused, and why'),
    deadline: z.string().nullable().describe('ISO 8601 UTC: when currently_due must be sent by; null when nothing is'),
    disabled_reason: z
      .string()
      .nullable()
      .describe("Stripe's reason the account is held back (an open set), e.g. `requirements.past_due`; null when none"),
    charges_enabled: z.boolean(),
    payouts_enabled: z.boolean().describe('Shown only: Remit does not hold payments back when payouts are off'),
    upcoming: z
      .object({
        eventually_due: z.array(requirementSchema),
        deadline: z.string().nullable().describe('ISO 8601 UTC'),
      })
      .describe("Stripe's `future_requirements`: what new rules will ask for, and from when"),
  })
  .describe('What the processor still needs from the merchant (docs/concepts.md, verification)');
export type Verification = z.infer<typeof verificationSchema>;

/** Every list empty, no deadline, no reason: a verification's parts when nothing is asked for. */
export const nothingDue = () => ({
  currently_due: [] as never[],
  eventually_due: [] as never[],
  past_due: [] as never[],
  pending_verification: [] as never[],
  errors: [] as never[],
  deadline: null,
  disabled_reason: null,
  upcoming: { eventually_due: [] as never[], deadline: null },
});

export const MAX_RETURN_URL_LENGTH = 2048;

/** An absolute http(s) address of at most 2048 characters. */
const returnUrl = z
  .string({ error: 'must be an absolute http(s) URL' })
  .max(MAX_RETURN_URL_LENGTH, `must be at most ${MAX_RETURN_URL_LENGTH} characters`)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && /^https?:\/\//i.test(v) && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

/** `POST /merchant/verification-link`. */
export const verificationLinkBody = z.object({
  merchant_id: z.string().trim().min(1, 'is required').max(100),
  return_url: returnUrl.optional().describe('Where the merchant continues after the verification pages'),
});
export type VerificationLinkRequest = z.input<typeof verificationLinkBody>;

export const verificationLinkSchema = z.object({
  url: z.string().describe("On Remit's own origin; each visit opens a fresh Stripe Account Link"),
  expires_at: z.string().describe('ISO 8601 UTC'),
});
export type VerificationLink = z.infer<typeof verificationLinkSchema>;
export const verificationLinkResponseSchema = envelope(verificationLinkSchema);

const requirementName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[A-Za-z0-9_.]+$/, 'must be a requirement name such as individual.verification.document');

/** `POST /sandbox/merchant-verification` (sandbox only). */
export const sandboxVerificationInput = z.object({
  merchant_key: merchantKey(),
  currently_due: z.array(requirementName).max(50).optional().describe('Requirement names to ask for'),
  errors: z
    .array(
      z.object({
        requirement: requirementName,
        code: z.string().trim().min(1, 'must not be empty').max(100).default('verification_failed_other'),
        reason: z.string().trim().min(1, 'must not be empty').max(500).default('The document could not be verified.'),
      }),
    )
    .max(50)
    .optional()
    .describe('Requirements sent and refused (each also asked for again)'),
  restricted: z.boolean().optional().describe('Hold charges off (disabled_reason requirements.past_due)'),
});
export type SandboxVerificationInput = z.output<typeof sandboxVerificationInput>;
export type SandboxVerificationRequest = z.input<typeof sandboxVerificationInput>;
export const sandboxVerificationResponseSchema = envelope(
  z.object({ merchant_id: z.string(), verification: verificationSchema }),
);
