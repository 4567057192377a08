import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookUrlForm } from './webhook-form.js';

const saved = { webhook_url: 'https://hooks.example/remit', signing_secret: 'whsec_abc', disabled: false };

describe('WebhookUrlForm', () => {
  afterEach(cleanup);

  it('refuses a URL that is not absolute http(s), before sending', async () => {
    const save = vi.fn();
    render(<WebhookUrlForm current={null} save={save} onSaved={() => {}} />);
    for (const [value, message] of [
      ['', 'Enter the URL Remit should POST events to'],
      ['hooks.example', 'Enter a full URL, like https://example.com/webhooks'],
      ['ftp://hooks.example', 'Enter an http or https URL'],
    ]) {
      fireEvent.input(screen.getByLabelText('Webhook URL'), { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: 'Save webhook URL' }));
      await screen.findByRole('alert');
      expect(screen.getByLabelText('Webhook URL').getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById('webhook-url-error')!.textContent).toBe(message);
    }
    expect(save).not.toHaveBeenCalled();
  });

  it('saves the trimmed URL and hands back the signing secret', async () => {
    const save = vi.fn(async () => ({ ok: true as const, data: saved }));
    const onSaved = vi.fn();
    render(<WebhookUrlForm current={null} save={save} onSaved={onSaved} />);
    fireEvent.input(screen.getByLabelText('Webhook URL'), { target: { value: ' https://hooks.example/remit ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save webhook URL' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(save).toHaveBeenCalledWith('https://hooks.example/remit');
  });

  it("shows the server's field error (production refuses http) on the field", async () => {
    const save = async () => ({
      ok: false as const,
      status: 400,
      code: 'invalid_webhook_url',
      message: 'webhook_url must use https in production.',
      errors: [{ path: 'webhook_url', message: 'webhook_url must use https in production.' }],
    });
    render(<WebhookUrlForm current="https://old.example/x" save={save} onSaved={() => {}} />);
    expect((screen.getByLabelText('Webhook URL') as HTMLInputElement).value).toBe('https://old.example/x');
    fireEvent.click(screen.getByRole('button', { name: 'Update webhook URL' }));
    await screen.findByRole('alert');
    expect(document.getElementById('webhook-url-error')!.textContent).toBe('webhook_url must use https in production.');
  });
});
