import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInForm } from './sign-in-form.js';

const session = { client_id: 'cl_abc', csrf_token: 't', expires_at: '2030-01-01T00:00:00.000Z' };
const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('SignInForm', () => {
  afterEach(cleanup);

  it('an empty submit lists both errors at the top, linked to their fields, and focuses the list', async () => {
    const signIn = vi.fn();
    render(<SignInForm signIn={signIn} onSignedIn={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const summary = await screen.findByRole('alert');
    const links = [...summary.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.textContent]);
    expect(links).toEqual([
      ['#signin-client-id', 'Enter your client ID'],
      ['#signin-secret-key', 'Enter your secret key'],
    ]);
    await waitFor(() => expect(document.activeElement).toBe(summary));
    const id = screen.getByLabelText('Client ID');
    expect(id.getAttribute('aria-invalid')).toBe('true');
    expect(id.getAttribute('aria-describedby')).toBe('signin-client-id-error');
    expect(signIn).not.toHaveBeenCalled();
  });

  it('refuses keys of the wrong shape before asking the server', () => {
    const signIn = vi.fn();
    render(<SignInForm signIn={signIn} onSignedIn={() => {}} />);
    type('Client ID', 'hello');
    type('Secret key', 'sk_live_abc');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter a sandbox secret key, which starts sk_test_', { selector: 'p' })).toBeTruthy();
    expect(signIn).not.toHaveBeenCalled();
  });

  it('the secret key is a password field the browser does not offer to remember', () => {
    render(<SignInForm signIn={vi.fn()} onSignedIn={() => {}} />);
    const secret = screen.getByLabelText('Secret key') as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.getAttribute('autocomplete')).toBe('off');
  });

  it("shows the server's refusal (the sign-in limit) in the summary", async () => {
    render(
      <SignInForm
        signIn={async () => ({
          ok: false,
          status: 429,
          code: 'rate_limited',
          message: 'Too many failed sign-ins. Try again in 15 minutes.',
          errors: [],
        })}
        onSignedIn={() => {}}
      />,
    );
    type('Client ID', 'cl_abc');
    type('Secret key', 'sk_test_abc');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many failed sign-ins');
  });

  it('signs in with the trimmed values and forgets the secret afterwards', async () => {
    const signIn = vi.fn(async () => ({ ok: true as const, data: session }));
    const onSignedIn = vi.fn();
    render(<SignInForm signIn={signIn} onSignedIn={onSignedIn} />);
    type('Client ID', ' cl_abc ');
    type('Secret key', 'sk_test_abc ');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(session));
    expect(signIn).toHaveBeenCalledWith({ client_id: 'cl_abc', secret_key: 'sk_test_abc' });
    expect((screen.getByLabelText('Secret key') as HTMLInputElement).value).toBe('');
  });
});
