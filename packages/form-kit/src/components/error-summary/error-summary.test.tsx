import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { axeFindings } from '../../testing/axe.js';
import { ErrorSummary } from './error-summary.js';

describe('ErrorSummary', () => {
  afterEach(cleanup);

  it('renders nothing without errors', () => {
    const { container } = render(<ErrorSummary items={[]} />);
    expect(container.innerHTML).toBe('');
  });

  it('lists the errors under its title, takes focus, and is an alert', () => {
    render(
      <ErrorSummary
        items={[
          ['card-number', 'Enter a card number'],
          ['zip', 'Enter a ZIP code'],
        ]}
      />,
    );
    const summary = screen.getByRole('alert');
    expect(document.activeElement).toBe(summary);
    expect(summary.getAttribute('aria-labelledby')).toBe('error-summary-title');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('There is a problem');
    expect(screen.getAllByRole('link').map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      ['#card-number', 'Enter a card number'],
      ['#zip', 'Enter a ZIP code'],
    ]);
  });

  it('takes its title in the page language', () => {
    render(<ErrorSummary items={[['zip', 'Introduce un código postal']]} title="Hay un problema" />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Hay un problema');
  });

  it('moves focus to the field a link names, opening the <details> it is in', () => {
    render(
      <div>
        <ErrorSummary items={[['url', 'Enter an https URL']]} />
        <details>
          <summary>Webhook</summary>
          <input id="url" aria-label="Webhook URL" />
        </details>
      </div>,
    );
    fireEvent.click(screen.getByRole('link', { name: 'Enter an https URL' }));
    expect(document.activeElement!.id).toBe('url');
    expect(document.querySelector('details')!.hasAttribute('open')).toBe(true);
  });

  it('shows a message that belongs to no field as plain text', () => {
    render(<ErrorSummary items={[['', 'The server could not be reached.']]} />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('listitem').textContent).toBe('The server could not be reached.');
  });

  it('passes axe with its fields', async () => {
    render(
      <main>
        <ErrorSummary
          items={[
            ['zip', 'Enter a ZIP code'],
            ['', 'Try again later'],
          ]}
        />
        <label for="zip">ZIP code</label>
        <input id="zip" />
      </main>,
    );
    expect(await axeFindings()).toEqual([]);
  });
});
