import { cleanup, render, screen } from '@testing-library/preact';
import type { EmbedPolicy } from '@remit/contract';
import { afterEach, expect, it } from 'vitest';
import { EmbedPolicyCard } from './embed-policy-card.js';

const policy: EmbedPolicy = {
  loader_url: 'http://127.0.0.1:8080/js/dynamic-launch.AbCdEf0123456789.js?remit_merchant_public_key=pk_test_p',
  integrity: 'sha384-abc',
  script_tag:
    '<script src="http://127.0.0.1:8080/js/dynamic-launch.AbCdEf0123456789.js?remit_merchant_public_key=pk_test_p" integrity="sha384-abc" crossorigin="anonymous"></script>',
  csp: "script-src 'self' http://127.0.0.1:8080; object-src 'none'",
  report_uri: 'http://127.0.0.1:8080/csp-reports/pk_test_p',
};

afterEach(cleanup);

it('shows the exact tag and policy, each with its own named copy button', () => {
  render(<EmbedPolicyCard policy={policy} />);
  expect(screen.getByRole('heading', { name: 'Pinned tag and policy (PCI SAQ A)' })).toBeTruthy();
  expect(screen.getByLabelText('Pinned script tag', { selector: 'pre' }).textContent).toBe(policy.script_tag);
  expect(screen.getByLabelText('Content-Security-Policy header', { selector: 'pre' }).textContent).toBe(policy.csp);
  expect(screen.getByRole('button', { name: 'Copy Pinned script tag' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Copy Content-Security-Policy header' })).toBeTruthy();
});
