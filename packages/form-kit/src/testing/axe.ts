import axe from 'axe-core';

/**
 * axe's findings on the document, as `rule: target` lines (none when it passes), with the tags the
 * e2e runs use. Colour contrast needs a layout engine, which happy-dom lacks: the e2e runs in
 * Chromium (e2e/pay-*.test.ts, e2e/portal-views.test.ts) check it on the real pages, and the rules
 * about a whole page (title, language, landmarks, one h1), which a component alone cannot meet.
 */
const PAGE_RULES = [
  'color-contrast',
  'document-title',
  'html-has-lang',
  'landmark-one-main',
  'page-has-heading-one',
  'region',
];

export async function axeFindings(): Promise<string[]> {
  const result = await axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    rules: Object.fromEntries(PAGE_RULES.map((id) => [id, { enabled: false }])),
  });
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}
