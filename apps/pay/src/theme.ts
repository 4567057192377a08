/**
 * The merchant's colour as CSS custom properties (CSSOM, allowed by a CSP without inline styles),
 * with a text colour that keeps AA contrast on it, and a darker shade when it is too light to
 * mark a focused or selected control against white.
 */
function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** Text colour for a background: white or near-black, whichever contrasts more. */
export function inkFor(hex: string): string {
  const l = luminance(hex);
  return contrast(l, 1) >= contrast(l, luminance('#111827')) ? '#ffffff' : '#111827';
}

export function applyBrand(color: string | null): void {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return;
  const root = document.documentElement.style;
  root.setProperty('--brand', color);
  root.setProperty('--brand-ink', inkFor(color));
}
