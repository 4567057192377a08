/**
 * The merchant's colour as CSS custom properties (CSSOM, allowed by a CSP without inline styles),
 * with a text colour readable on it: near-black on light colours, white on dark ones (the
 * WCAG luminance crossover between the two is about 0.18).
 */
export function inkFor(hex: string): string {
  const l = [1, 3, 5].reduce((sum, i, k) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return sum + [0.2126, 0.7152, 0.0722][k]! * (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  }, 0);
  return l > 0.18 ? '#111827' : '#ffffff';
}

export function applyBrand(color: string | null): void {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return;
  const root = document.documentElement.style;
  root.setProperty('--brand', color);
  root.setProperty('--brand-ink', inkFor(color));
}
