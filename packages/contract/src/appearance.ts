import * as z from 'zod';

/**
 * A merchant's appearance, named as Stripe names it (`appearance: {theme, variables}`): the widget
 * settings store one, a page may pass another over it. The core resolves it into the CSS every
 * surface reads and refuses one whose colours would not read (core/src/widgets/appearance.ts).
 */

export const THEMES = ['default', 'night', 'flat', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

const COLOR_RULE = 'must be a colour #rrggbb (for example #1a56db)';
const FONT_RULE =
  'must be a CSS font-family list: names of letters, digits, spaces and -, separated by commas, each whole name optionally in matching quotes, for example \'Inter, "Segoe UI", sans-serif\'';

/**
 * A font-family list the stylesheet holds as it is: plain names, or names in one pair of quotes.
 * A quote left open would run on to the end of the sheet and swallow every rule after it; `;`,
 * braces, `<`, backslashes and line breaks, which could end the value or the style element, are
 * not name characters at all.
 */
const FONT_NAME = String.raw`(?:"[\w ,'-]+"|'[\w ,"-]+'|[\w-]+(?: +[\w-]+)*)`;
export const FONT_FAMILY_LIST = new RegExp(`^${FONT_NAME}(?: *, *${FONT_NAME})*$`);

/** `Npx` within [min, max]. */
const px = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,2}(\.\d{1,2})?px$/, `must be a length in px from ${min}px to ${max}px, for example "${min + 2}px"`)
    .refine((v) => parseFloat(v) >= min && parseFloat(v) <= max, `must be from ${min}px to ${max}px`);

export const colorValue = () =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, COLOR_RULE)
    .transform((c) => c.toLowerCase());

export const appearanceVariablesSchema = z.object({
  colorPrimary: colorValue().optional(),
  colorBackground: colorValue().optional(),
  colorText: colorValue().optional(),
  colorDanger: colorValue().optional(),
  colorBorder: colorValue().optional(),
  fontFamily: z.string().trim().min(1, FONT_RULE).max(200, FONT_RULE).regex(FONT_FAMILY_LIST, FONT_RULE).optional(),
  fontSizeBase: px(12, 24).optional(),
  borderRadius: px(0, 24).optional(),
  spacingUnit: px(2, 12).optional(),
});
export type AppearanceVariables = z.output<typeof appearanceVariablesSchema>;

/** The variables as answered (GET /widgets): what was stored, each a string. */
export const appearanceVariablesView = z.object(
  Object.fromEntries(Object.keys(appearanceVariablesSchema.shape).map((k) => [k, z.string().optional()])) as {
    [K in keyof AppearanceVariables]-?: z.ZodOptional<z.ZodString>;
  },
);

export const appearanceSchema = z.object({
  theme: z.enum(THEMES, { error: `must be one of ${THEMES.join(', ')}` }).optional(),
  variables: appearanceVariablesSchema.optional(),
});
export type Appearance = z.output<typeof appearanceSchema>;

export const APPEARANCE_STYLESHEET = '/pay/appearance.css';
