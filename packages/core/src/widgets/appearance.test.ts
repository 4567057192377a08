import { describe, expect, it } from 'vitest';
import { appearanceSchema, contrast, THEMES } from '@remit/contract';
import {
  appearanceCss,
  appearanceProblems,
  cssVariables,
  overAppearance,
  palettesOf,
  THEME_PALETTES,
  withPrimaryColor,
} from './appearance.js';

describe('appearance themes', () => {
  it.each(THEMES)('%s passes every contrast check, and so does each of its derived colours', (theme) => {
    expect(appearanceProblems({ theme })).toEqual([]);
    for (const { palette } of palettesOf({ theme })) {
      const v = cssVariables(palette);
      for (const bg of [v['--surface']!, v['--bg']!]) {
        expect(contrast(v['--ink']!, bg)).toBeGreaterThanOrEqual(4.5);
        expect(contrast(v['--muted']!, bg)).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(v['--field']!, v['--surface']!)).toBeGreaterThanOrEqual(3);
      expect(contrast(v['--ink']!, v['--tint']!)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(v['--error']!, v['--error-bg']!)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('auto is the default palette and the night one under prefers-color-scheme: dark', () => {
    const css = appearanceCss({ theme: 'auto' }, ':host');
    expect(css).toMatch(
      /^:host\{--brand:#1d4ed8;.*\}@media \(prefers-color-scheme:dark\)\{:host\{--brand:#60a5fa;.*color-scheme:dark.*\}\}$/,
    );
  });

  it('the default appearance needs no stylesheet; anything else writes every property', () => {
    expect(appearanceCss({}, ':root,body')).toBe('');
    expect(appearanceCss({ theme: 'default', variables: {} }, ':root,body')).toBe('');
    const css = appearanceCss(
      { theme: 'flat', variables: { colorPrimary: '#7c3aed', fontFamily: 'Georgia, serif', fontSizeBase: '18px' } },
      ':root,body',
    );
    expect(css).toContain('--brand:#7c3aed;--brand-ink:#ffffff;');
    expect(css).toContain('--radius:2px;');
    expect(css).toContain('font-family:Georgia, serif;font-size:18px}');
  });

  it('the older primary colour is colorPrimary unless the appearance sets one', () => {
    expect(withPrimaryColor(null, '#ffd400')).toEqual({ variables: { colorPrimary: '#ffd400' } });
    expect(withPrimaryColor({ variables: { colorPrimary: '#111111' } }, '#ffd400').variables?.colorPrimary).toBe(
      '#111111',
    );
    expect(withPrimaryColor({ theme: 'night' }, null)).toEqual({ theme: 'night' });
    // A light brand colour gets dark text on it.
    expect(cssVariables(palettesOf(withPrimaryColor(null, '#ffd400'))[0]!.palette)['--brand-ink']).toBe('#111827');
  });

  it("a page's override goes over the settings", () => {
    expect(
      overAppearance(
        { theme: 'flat', variables: { colorPrimary: '#7c3aed' } },
        { variables: { fontSizeBase: '18px' } },
      ),
    ).toEqual({
      theme: 'flat',
      variables: { colorPrimary: '#7c3aed', fontSizeBase: '18px' },
    });
    expect(overAppearance({ theme: 'flat' }, { theme: 'night' }).theme).toBe('night');
  });
});

describe('appearanceProblems', () => {
  it('names each failing pair with its ratio', () => {
    expect(appearanceProblems({ variables: { colorText: '#999999' } })).toEqual([
      { path: 'colorText', message: 'colorText on colorBackground has contrast 2.8:1; at least 4.5:1 is required' },
    ]);
    expect(appearanceProblems({ variables: { colorPrimary: '#808080' } })).toEqual([
      {
        path: 'colorPrimary',
        message: 'text on colorPrimary (#111827) has contrast 4.4:1; at least 4.5:1 is required',
      },
    ]);
    expect(appearanceProblems({ variables: { colorDanger: '#ff8080' } })).toEqual([
      { path: 'colorDanger', message: 'colorDanger on colorBackground has contrast 2.4:1; at least 4.5:1 is required' },
    ]);
    expect(appearanceProblems({ variables: { colorBackground: '#2563eb', colorText: '#ffffff' } })).toEqual([
      { path: 'colorDanger', message: 'colorDanger on colorBackground has contrast 1.2:1; at least 4.5:1 is required' },
      {
        path: 'colorBackground',
        message: 'focus ring (#2563eb) on colorBackground has contrast 1.0:1; at least 3:1 is required',
      },
    ]);
  });

  it('checks both palettes of auto', () => {
    const [problem] = appearanceProblems({ theme: 'auto', variables: { colorText: '#111827' } });
    expect(problem?.message).toMatch(
      /^colorText on colorBackground has contrast 1\.\d:1 \(dark mode\); at least 4\.5:1 is required$/,
    );
  });
});

describe('appearanceSchema', () => {
  it('takes Stripe-named variables and refuses wrong shapes', () => {
    expect(
      appearanceSchema.parse({ theme: 'night', variables: { colorPrimary: '#7C3AED', borderRadius: '4px' } }),
    ).toEqual({
      theme: 'night',
      variables: { colorPrimary: '#7c3aed', borderRadius: '4px' },
    });
    for (const bad of [
      { theme: 'dark' },
      { variables: { colorPrimary: 'red' } },
      { variables: { fontSizeBase: '40px' } },
      { variables: { fontFamily: 'x;}body{color:red' } },
      { variables: { spacingUnit: 4 } },
    ])
      expect(appearanceSchema.safeParse(bad).success).toBe(false);
  });
  it('every theme palette has every variable', () => {
    for (const p of Object.values(THEME_PALETTES)) expect(Object.keys(p)).toHaveLength(13);
  });
});
