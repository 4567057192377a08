import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { axeFindings } from '../../testing/axe.js';
import { ErrorMessage } from './error-message.js';

describe('ErrorMessage', () => {
  afterEach(cleanup);

  it('shows the message under its id, to be tied to an input', () => {
    const { container } = render(<ErrorMessage id="zip-error" error="Enter a ZIP code" />);
    const p = container.querySelector('p.error-message')!;
    expect(p.id).toBe('zip-error');
    expect(p.textContent).toBe('Enter a ZIP code');
  });

  it('renders nothing when there is no error', () => {
    const { container } = render(<ErrorMessage id="zip-error" />);
    expect(container.innerHTML).toBe('');
  });

  it('passes axe beside the input it describes', async () => {
    render(
      <main>
        <label for="zip">ZIP code</label>
        <ErrorMessage id="zip-error" error="Enter a ZIP code" />
        <input id="zip" aria-describedby="zip-error" aria-invalid="true" />
      </main>,
    );
    expect(await axeFindings()).toEqual([]);
  });
});
