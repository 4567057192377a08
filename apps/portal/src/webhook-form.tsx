import { useEffect, useState } from 'preact/hooks';
import type { PortalWebhook } from '@remit/contract';
import type { ApiResult } from './api.js';
import { ErrorSummary, Field } from '@remit/form-kit';

export function validateWebhookUrl(raw: string): string | undefined {
  const v = raw.trim();
  if (!v) return 'Enter the URL Remit should POST events to';
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Enter an http or https URL';
  } catch {
    return 'Enter a full URL, like https://example.com/webhooks';
  }
  return undefined;
}

export interface WebhookUrlFormProps {
  current: string | null;
  save: (url: string) => Promise<ApiResult<PortalWebhook>>;
  onSaved: (w: PortalWebhook) => void;
}

/** The webhook URL: set or changed; the signing secret stays the same across changes. */
export function WebhookUrlForm({ current, save, onSaved }: WebhookUrlFormProps) {
  const [url, setUrl] = useState(current ?? '');
  const [error, setError] = useState<string | undefined>();
  const [summary, setSummary] = useState<Array<[string, string]>>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => setUrl(current ?? ''), [current]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = validateWebhookUrl(url);
    setError(found);
    if (found) return setSummary([['webhook-url', found]]);
    setBusy(true);
    const r = await save(url.trim());
    setBusy(false);
    if (r.ok) {
      setSummary([]);
      return onSaved(r.data);
    }
    const fieldMessage = r.errors?.find((x) => x.path === 'webhook_url')?.message;
    setError(fieldMessage ?? r.message);
    setSummary([['webhook-url', fieldMessage ?? r.message]]);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Webhook endpoint">
      <ErrorSummary items={summary} />
      <Field
        id="webhook-url"
        label="Webhook URL"
        type="url"
        inputMode="url"
        autocomplete="url"
        hint="Remit POSTs every event here, signed with the signing secret below."
        value={url}
        error={error}
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <button type="submit" class="button" disabled={busy}>
        {busy ? 'Saving…' : current ? 'Update webhook URL' : 'Save webhook URL'}
      </button>
    </form>
  );
}
