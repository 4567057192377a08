import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';

const made = { client_id: 'cl_abcdefghijklmnopqrst', secret_key: 'sk_test_0123456789abcdef0123456789abcdef' };
const signIn = vi.fn(async () => ({ ok: true as const, data: { client_id: made.client_id, csrf_token: 't' } }));
vi.mock('./api.js', () => ({
  api: { createCredentials: async () => ({ ok: true, data: made }), signIn },
  setCsrfToken: () => {},
}));
const { SignInView } = await import('./sign-in-view.js');
const { session } = await import('./state.js');

describe('the signed-out page', () => {
  afterEach(cleanup);

  it('shows both ways in until credentials are made, then only the credentials and the next step', async () => {
    render(<SignInView />);
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create sandbox credentials' }));
    await screen.findByRole('heading', { name: 'Your sandbox credentials' });
    // No empty sign-in form beside the fresh credentials: one way forward.
    expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();
    expect(screen.queryByLabelText('Client ID')).toBeNull();
    expect(document.querySelector('.next')!.textContent).toBe(
      'Next: copy the secret key, then sign in with these credentials to add a merchant, a webhook and a test payment.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with these credentials' }));
    await waitFor(() => expect(session.value).toEqual({ client_id: made.client_id, csrf_token: 't' }));
    expect(signIn).toHaveBeenCalledWith(made);
  });
});
