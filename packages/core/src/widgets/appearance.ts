import {
  appearanceSchema,
  appearanceVariablesSchema,
  APPEARANCE_STYLESHEET,
  contrast,
  formatRatio,
  mix,
  NON_TEXT_CONTRAST,
  readableOn,
  TEXT_CONTRAST,
  type Appearance,
  type AppearanceVariables,
  type Theme,
} from '@remit/contract';

/**
 * A merchant's appearance resolved, once, on the server into the CSS custom properties every
 * surface reads (pay page, add-card page, receipt, modal, widgets): the browser adopts the result
 * and runs none of this. Refused when a pair of its colours would not read (WCAG 2.2 AA).
 */

/** Every variable with a value: what one theme gives, under the merchant's own. */
type Palette = Required<AppearanceVariables> & { focus: string; ok: string; shadow: string; scheme: 'light' | 'dark' };

const SYSTEM_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const base = { fontFamily: SYSTEM_FONT, fontSizeBase: '16px', borderRadius: '8px', spacingUnit: '4px', ok: '#15803d' };

/** The three themes (auto is default or night as the device prefers); each passes every check below. */
export const THEME_PALETTES: Record<Exclude<Theme, 'auto'>, Palette> = {
  default: {
    ...base,
    colorPrimary: '#1d4ed8',
    colorBackground: '#ffffff',
    colorText: '#111827',
    colorDanger: '#b91c1c',
    colorBorder: '#d1d5db',
    focus: '#2563eb',
    shadow: '0 1px 3px rgb(0 0 0 / 0.08)',
    scheme: 'light',
  },
  night: {
    ...base,
    colorPrimary: '#60a5fa',
    colorBackground: '#1f2937',
    colorText: '#f9fafb',
    colorDanger: '#fca5a5',
    colorBorder: '#4b5563',
    focus: '#93c5fd',
    ok: '#166534',
    shadow: '0 1px 3px rgb(0 0 0 / 0.5)',
    scheme: 'dark',
  },
  flat: {
    ...base,
    colorPrimary: '#111827',
    colorBackground: '#ffffff',
    colorText: '#1f2937',
    colorDanger: '#b91c1c',
    colorBorder: '#9ca3af',
    borderRadius: '2px',
    focus: '#1d4ed8',
    shadow: 'none',
    scheme: 'light',
  },
};

/**
 * A stored appearance less any value today's rules refuse: one saved before a rule tightened (a
 * font list with a quote left open) must not reach a stylesheet.
 */
export function underCurrentRules(a: Appearance | null | undefined): Appearance | null | undefined {
  if (!a || appearanceSchema.safeParse(a).success) return a;
  const shape = appearanceVariablesSchema.shape;
  const variables = Object.fromEntries(
    Object.entries(a.variables ?? {}).filter(
      ([k, v]) => k in shape && shape[k as keyof typeof shape].safeParse(v).success,
    ),
  );
  return { ...(appearanceSchema.shape.theme.safeParse(a.theme).success ? { theme: a.theme } : {}), variables };
}

/** The stored settings' appearance with the older `theme.primary_color` as its colorPrimary when it sets none. */
export function withPrimaryColor(
  appearance: Appearance | null | undefined,
  primaryColor: string | null | undefined,
): Appearance {
  const a = appearance ?? {};
  if (!primaryColor || a.variables?.colorPrimary) return a;
  return { ...a, variables: { ...a.variables, colorPrimary: primaryColor } };
}

/** A page's override over the settings: its theme, if any, replaces theirs; its variables go over theirs. */
export const overAppearance = (settings: Appearance, page: Appearance): Appearance => ({
  theme: page.theme ?? settings.theme,
  variables: { ...settings.variables, ...page.variables },
});

/** The palettes an appearance shows: one, or light and dark for `auto`. */
export function palettesOf(a: Appearance): Array<{ dark: boolean; palette: Palette }> {
  const themes = a.theme === 'auto' ? (['default', 'night'] as const) : ([a.theme ?? 'default'] as const);
  return themes.map((t) => {
    const palette: Palette = { ...THEME_PALETTES[t] };
    for (const [k, v] of Object.entries(a.variables ?? {}))
      if (v !== undefined) (palette as Record<string, string>)[k] = v;
    return { dark: t === 'night' && a.theme === 'auto', palette };
  });
}

/** The text colour on the primary colour (buttons). */
const onPrimary = (p: Palette) => readableOn(p.colorPrimary);

export interface AppearanceProblem {
  /** The variable to change, under `appearance.variables`. */
  path: string;
  message: string;
}

/**
 * The pairs that must read (WCAG 2.2 AA): text, danger text and focus ring on the background,
 * and the button text on the primary colour. Empty when every pair passes.
 */
export function appearanceProblems(a: Appearance): AppearanceProblem[] {
  const problems: AppearanceProblem[] = [];
  for (const { dark, palette: p } of palettesOf(a)) {
    const when = dark ? ' (dark mode)' : '';
    const check = (path: string, pair: string, fg: string, bg: string, least: number) => {
      const ratio = contrast(fg, bg);
      if (ratio < least)
        problems.push({
          path,
          message: `${pair} has contrast ${formatRatio(ratio)}${when}; at least ${least}:1 is required`,
        });
    };
    check('colorText', 'colorText on colorBackground', p.colorText, p.colorBackground, TEXT_CONTRAST);
    check('colorPrimary', `text on colorPrimary (${onPrimary(p)})`, onPrimary(p), p.colorPrimary, TEXT_CONTRAST);
    check('colorDanger', 'colorDanger on colorBackground', p.colorDanger, p.colorBackground, TEXT_CONTRAST);
    check(
      'colorBackground',
      `focus ring (${p.focus}) on colorBackground`,
      p.focus,
      p.colorBackground,
      NON_TEXT_CONTRAST,
    );
  }
  return problems;
}

/** `a` faded toward `b` as far as `share` allows while `text` still reads on it; else `b`. */
const tintFor = (a: string, b: string, share: number, text: string) => {
  const t = mix(a, b, share);
  return contrast(text, t) >= TEXT_CONTRAST ? t : b;
};

/**
 * The CSS custom properties of one palette: the variables, and what follows from them (button
 * text, muted text, field borders, tints) chosen so that each still reads.
 */
export function cssVariables(p: Palette): Record<string, string> {
  const bg = p.colorBackground;
  const muted = mix(p.colorText, bg, 0.75);
  const page = tintFor(p.colorText, bg, 0.05, p.colorText);
  return {
    '--brand': p.colorPrimary,
    '--brand-ink': onPrimary(p),
    '--ink': p.colorText,
    '--muted': contrast(muted, page) >= TEXT_CONTRAST ? muted : p.colorText,
    '--line': p.colorBorder,
    // A field's edge is what shows it is there: 3:1 against the background (WCAG 1.4.11).
    '--field': contrast(p.colorBorder, bg) >= NON_TEXT_CONTRAST ? p.colorBorder : mix(p.colorText, bg, 0.6),
    '--error': p.colorDanger,
    '--error-bg': tintFor(p.colorDanger, bg, 0.08, p.colorDanger),
    '--focus': p.focus,
    '--tint': tintFor(p.focus, bg, 0.1, p.colorText),
    '--ok': p.ok,
    '--surface': bg,
    '--bg': page,
    '--radius': p.borderRadius,
    '--space': p.spacingUnit,
    '--shadow': p.shadow,
    'color-scheme': p.scheme,
    'font-family': p.fontFamily,
    'font-size': p.fontSizeBase,
  };
}

const block = (selector: string, vars: Record<string, string>) =>
  `${selector}{${Object.entries(vars)
    .map(([k, v]) => `${k}:${v}`)
    .join(';')}}`;

/**
 * The stylesheet of an appearance for `selector` (`:root,body` on the pay page, `:host` in a
 * widget's shadow root); `''` for the default appearance, whose values the built styles already hold.
 * Every value in it has passed the schema above (colours, px lengths, a plain font list).
 */
export function appearanceCss(a: Appearance, selector: string): string {
  if ((a.theme ?? 'default') === 'default' && !Object.values(a.variables ?? {}).some((v) => v !== undefined)) return '';
  return palettesOf(a)
    .map(({ dark, palette }) => {
      const css = block(selector, cssVariables(palette));
      return dark ? `@media (prefers-color-scheme:dark){${css}}` : css;
    })
    .join('');
}

/** Why a page's override was not taken, as the console warning says it. */
const ignored = (why: string) => `the appearance option is ignored: ${why}`;

/**
 * A page's override (JSON text: the loader's `appearance` option, `?appearance=` of a pay page)
 * over the settings. One of the wrong shape, or whose colours would not read, leaves the settings
 * as they are and says why.
 */
export function withOverride(
  settings: Appearance,
  json: string | undefined,
): { appearance: Appearance; warning: string | null } {
  if (!json) return { appearance: settings, warning: null };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { appearance: settings, warning: ignored('it is not JSON') };
  }
  const parsed = appearanceSchema.safeParse(value);
  if (!parsed.success)
    return {
      appearance: settings,
      warning: ignored(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')),
    };
  const merged = overAppearance(settings, parsed.data);
  const problems = appearanceProblems(merged);
  if (problems.length) return { appearance: settings, warning: ignored(problems.map((p) => p.message).join('; ')) };
  return { appearance: merged, warning: null };
}

/** The pay page's stylesheet of an appearance (its values in the query: cacheable, no lookup); null for the default. */
export function stylesheetPath(a: Appearance): string | null {
  if (!appearanceCss(a, ':root')) return null;
  const q = new URLSearchParams();
  if (a.theme) q.set('theme', a.theme);
  for (const [k, v] of Object.entries(a.variables ?? {})) if (v !== undefined) q.set(k, v);
  return `${APPEARANCE_STYLESHEET}?${q}`;
}

/** The appearance a stylesheet path's query names, if it is of the right shape and readable. */
export function appearanceFromQuery(query: Record<string, string>): Appearance | null {
  const { theme, ...variables } = query;
  const parsed = appearanceSchema.safeParse({ theme, variables });
  return parsed.success && !appearanceProblems(parsed.data).length ? parsed.data : null;
}
