import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exampleOnboarding, type OnboardingRequest } from '@remit/contract';
import { OnboardingForm } from './onboarding-form.js';

const initial = exampleOnboarding({ business_name: 'Demo Store 1234', email: 'owner@demo-store.example' });
const ok = async (_input: OnboardingRequest) => ({ ok: true as const, data: {} });

describe('OnboardingForm', () => {
  afterEach(cleanup);

  it('starts filled in with the whole valid submission, every field labelled', () => {
    render(<OnboardingForm initial={initial} submit={ok} onDone={() => {}} />);
    expect((screen.getByLabelText('Legal business name') as HTMLInputElement).value).toBe('Demo Store 1234');
    expect((screen.getByLabelText('EIN') as HTMLInputElement).value).toBe('12-3456789');
    expect((screen.getByLabelText('Routing number') as HTMLInputElement).value).toBe('011000015');
    const count = Object.values(initial).reduce((n, section) => n + Object.keys(section).length, 0);
    expect(document.querySelectorAll('input').length).toBe(count);
    for (const input of document.querySelectorAll('input'))
      expect(document.querySelector(`label[for="${input.id}"]`)).not.toBeNull();
  });

  it('submits it as it is in one click, edits included', async () => {
    const submit = vi.fn(ok);
    const onDone = vi.fn();
    render(<OnboardingForm initial={initial} submit={submit} onDone={onDone} />);
    fireEvent.input(screen.getByLabelText('Doing business as'), { target: { value: 'Ada’s Beans' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit onboarding' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const sent = submit.mock.calls[0]![0] as typeof initial;
    expect(sent.BusinessInfo.dba).toBe('Ada’s Beans');
    expect(sent.OwnerInfo.ssn).toBe('123-45-6789');
  });

  it('an emptied field is caught before sending, with a linked summary', async () => {
    const submit = vi.fn(ok);
    render(<OnboardingForm initial={initial} submit={submit} onDone={() => {}} />);
    fireEvent.input(screen.getByLabelText('Legal business name'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit onboarding' }));
    const link = (await screen.findByRole('alert')).querySelector('a')!;
    expect(link.getAttribute('href')).toBe('#ob-BusinessInfo-business_name');
    expect(link.textContent).toBe('Legal business name: is required');
    expect(submit).not.toHaveBeenCalled();
  });

  it("the server's field errors land on their fields and open their section", async () => {
    const submit = vi.fn(async (_input: OnboardingRequest) => ({
      ok: false as const,
      status: 400,
      code: 'invalid_request',
      message: 'Invalid request.',
      errors: [{ path: 'OwnerInfo.ssn', message: 'must be 9 digits' }],
    }));
    render(<OnboardingForm initial={initial} submit={submit} onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit onboarding' }));
    await screen.findByRole('alert');
    const ssn = screen.getByLabelText('SSN');
    expect(ssn.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(ssn.getAttribute('aria-describedby')!)!.textContent).toBe('SSN must be 9 digits');
    expect(ssn.closest('details')!.open).toBe(true);
  });
});
