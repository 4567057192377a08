import { describe, expect, it } from 'vitest';
import { snippets } from './snippets.js';

const keys = {
  origin: 'http://127.0.0.1:8080',
  clientId: 'cl_abc',
  secretKey: 'sk_test_secret',
  merchantKey: 'mk_test_m',
  publicKey: 'pk_test_p',
  signingSecret: 'whsec_s',
};

describe('snippets', () => {
  it('fill every snippet with the reader’s keys', () => {
    const byId = Object.fromEntries(snippets(keys).map((s) => [s.id, s.code]));
    expect(Object.keys(byId)).toEqual(['curl', 'script', 'react', 'vue', 'verify']);
    expect(byId.curl).toContain("-u 'cl_abc:sk_test_secret'");
    expect(byId.curl).toContain('"merchant_key": "mk_test_m"');
    expect(byId.script).toBe('<script src="http://127.0.0.1:8080/js/dynamic-launch.js?remit_merchant_public_key=pk_test_p" async></script>');
    expect(byId.react).toContain('publicKey="pk_test_p"');
    expect(byId.vue).toContain('public-key="pk_test_p"');
    expect(byId.verify).toContain("'whsec_s'");
    expect(byId.verify).toContain("from '@remit/sdk'");
  });

  it('read the secret key from the environment when this tab does not have it', () => {
    const curl = snippets({ ...keys, secretKey: null }).find((s) => s.id === 'curl')!.code;
    expect(curl).toContain("-u 'cl_abc:$REMIT_SECRET_KEY'");
    expect(curl).not.toContain('sk_test_secret');
  });
});
