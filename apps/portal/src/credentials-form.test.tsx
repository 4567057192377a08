import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CredentialsForm } from './credentials-form.js';

const made = { client_id: 'cl_abcdefghijklmnopqrst', secret_key: 'sk_test_0123456789abcdef0123456789abcdef' };

describe('CredentialsForm', () => {
  afterEach(cleanup);

  it('creates credentials and shows the secret once, with a warning and copy buttons', async () => {
    const create = vi.fn(async () => ({ ok: true as const, data: made }));
    render(<CredentialsForm create={create} onUse={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create sandbox credentials' }));
    await screen.findByRole('heading', { name: 'Your sandbox credentials' });
    expect(create).toHaveBeenCalledTimes(1);
    expect(screen.getByText(made.client_id)).toBeTruthy();
    expect(screen.getByText(made.secret_key)).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('shown only this once');
    expect(screen.getByRole('button', { name: 'Copy secret key' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy client ID' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.id).toBe('made-title'));
  });

  it('the copy button puts the secret on the clipboard', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CredentialsForm create={async () => ({ ok: true, data: made })} onUse={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create sandbox credentials' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Copy secret key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(made.secret_key));
    await screen.findByRole('button', { name: 'Copied' });
  });

  it('signs in with the credentials just made', async () => {
    const onUse = vi.fn();
    render(<CredentialsForm create={async () => ({ ok: true, data: made })} onUse={onUse} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create sandbox credentials' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with these credentials' }));
    expect(onUse).toHaveBeenCalledWith(made);
  });

  it('says what went wrong when the server refuses', async () => {
    render(
      <CredentialsForm
        create={async () => ({
          ok: false,
          status: 0,
          code: 'network_error',
          message: 'The server could not be reached.',
          errors: [],
        })}
        onUse={() => {}}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create sandbox credentials' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The server could not be reached.');
  });
});
