import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { axeFindings } from '../../testing/axe.js';
import { Field } from './field.js';

describe('Field', () => {
  afterEach(cleanup);

  it('labels a text input, described by nothing while it has no hint or error', () => {
    render(<Field id="name" label="Name on card" value="" />);
    const input = screen.getByLabelText('Name on card') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.getAttribute('aria-describedby')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('ties the hint, the error and any other description to the input, and marks it invalid', () => {
    render(
      <Field id="expiry" label="Expiry date" hint="MM / YY" error="Enter the expiry date" describedBy="card-brand" />,
    );
    const input = screen.getByLabelText('Expiry date');
    expect(input.getAttribute('aria-describedby')).toBe('expiry-hint expiry-error card-brand');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('expiry-hint')!.textContent).toBe('MM / YY');
    expect(document.getElementById('expiry-error')!.textContent).toBe('Enter the expiry date');
    expect(input.closest('.field')!.classList.contains('field--error')).toBe(true);
  });

  it('takes a type, a width, what to show after the input, and passes the rest to the input', () => {
    const onInput = vi.fn();
    const onBlur = vi.fn();
    render(
      <Field
        id="pw"
        label="Password"
        type="password"
        width="short"
        autocomplete="current-password"
        onInput={onInput}
        onBlur={onBlur}
        after={<span id="after">!</span>}
      />,
    );
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.className).toBe('input input--short');
    expect(input.getAttribute('autocomplete')).toBe('current-password');
    expect(input.nextElementSibling!.id).toBe('after');
    fireEvent.input(input, { target: { value: 'x' } });
    fireEvent.blur(input);
    expect(onInput).toHaveBeenCalledTimes(1);
    expect(onBlur).toHaveBeenCalledTimes(1);
  });

  it('passes axe, valid and in error', async () => {
    render(
      <main>
        <Field id="a" label="Routing number" hint="9 digits" value="" />
        <Field id="b" label="Account number" error="Enter the account number" value="12" />
      </main>,
    );
    expect(await axeFindings()).toEqual([]);
  });

  it('would be caught by axe without its label (the check can fail in happy-dom)', async () => {
    render(
      <main>
        <input id="bare" />
      </main>,
    );
    expect(await axeFindings()).toContain('label: #bare');
  });
});
