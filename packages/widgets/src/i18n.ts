import { inOrder } from '@remit/contract/translate';
import { WIDGET_EN, type WidgetLanguage, type WidgetMessages } from '@remit/contract/widget-messages';

/**
 * The widgets' language. English is in this chunk; another is fetched once from the server
 * (`/js/widget-messages/{tag}`: a few hundred bytes) when the loader's `locale` option, or else the
 * browser's language, is not English. The server makes the choice (`?locale=` tag first, then the
 * Accept-Language the browser sends), as the pay page does, so the modal and the page in it agree.
 */
export const lang: Omit<WidgetLanguage, 'messages'> & { messages: WidgetMessages } = {
  locale: 'en',
  intl: 'en-US',
  dir: 'ltr',
  messages: { ...WIDGET_EN },
};

/** Resolves once the language is there (at once for English; English on any failure). */
export function loadLanguage(base: string, asked?: string | null): Promise<unknown> {
  const tag = asked || navigator.language;
  return /^en\b/i.test(tag)
    ? Promise.resolve()
    : fetch(`${base}/js/widget-messages/${encodeURIComponent(tag)}`, { credentials: 'omit' })
        .then((r) => r.json())
        .then(
          (j: WidgetLanguage) => Object.assign(lang, j),
          () => 0,
        );
}

/**
 * The pay page address's query: `locale` (the page in the modal speaks the language the page asked
 * for) and the page's own `appearance` (JSON), when there are.
 */
export function pageQuery(asked?: string | null, appearance?: string | null): string {
  const q = new URLSearchParams();
  if (asked) q.set('locale', asked);
  if (appearance) q.set('appearance', appearance);
  const s = q.toString();
  return s ? '?' + s : '';
}

/** A message of the widgets' language, its placeholders filled in the order English names them. */
export const t = (k: keyof WidgetMessages, ...a: string[]) => inOrder(WIDGET_EN[k], lang.messages[k])(...a);
