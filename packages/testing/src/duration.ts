/** A duration for `clock.advance`: milliseconds, or text such as `'25h'`, `'3d'`, `'90m'`, `'30s'`, `'1d 2h'`. */
export type Duration = number | string;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

export function durationMs(d: Duration): number {
  if (typeof d === 'number') {
    if (!Number.isFinite(d) || d < 0) throw new RangeError(`A duration must be 0 or more milliseconds, not ${d}`);
    return Math.round(d);
  }
  const parts = d.trim().toLowerCase().split(/\s+/);
  let total = 0;
  for (const part of parts) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(part);
    if (!m)
      throw new RangeError(
        `Unreadable duration ${JSON.stringify(d)}: write milliseconds or a number with ms, s, m, h, d or w ('25h', '3d')`,
      );
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return Math.round(total);
}
