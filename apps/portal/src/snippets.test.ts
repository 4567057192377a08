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
  it('say how to install each package they import, from its tarball: never npm install of a name no registry has', () => {
    for (const s of snippets(keys)) {
      const imported = [...s.code.matchAll(/from '(@remit\/[\w-]+)'/g)].map((m) => m[1]!);
      expect(imported.length > 0, s.id).toBe(s.install !== undefined);
      for (const name of imported) {
        expect(s.install, s.id).toContain(`npm pack -w ${name} --pack-destination /tmp/remit-packages`);
        expect(s.install, s.id).toContain(`npm install /tmp/remit-packages/${name.slice(1).replace('/', '-')}-`);
      }
      expect(`${s.code} ${s.install ?? ''}`, s.id).not.toMatch(/npm (install|i) @remit\//);
    }
  });

  it('fill every snippet with the reader’s keys', () => {
    const byId = Object.fromEntries(snippets(keys).map((s) => [s.id, s.code]));
    expect(Object.keys(byId)).toEqual(['curl', 'script', 'react', 'vue', 'verify']);
    expect(byId.curl).toContain('-u "cl_abc:sk_test_secret"');
    expect(byId.curl).toContain('"merchant_key": "mk_test_m"');
    // Complete as pasted: the tag, a button, the call, the table (e2e/snippets.test.ts pays through each).
    expect(byId.script).toContain(
      '<script src="http://127.0.0.1:8080/js/dynamic-launch.js?remit_merchant_public_key=pk_test_p"></script>',
    );
    expect(byId.script).toContain('<button id="remit-pay" type="button">Pay $10.00</button>');
    expect(byId.script).toContain("getPaymentPage('10.00')");
    expect(byId.script).toContain('<table id="remit_complete_transactions"></table>');
    // The components' own prop names, and the Remit server (else they load from the shop's origin).
    for (const c of [byId.react!, byId.vue!]) {
      expect(c).toContain("const clientKey = 'pk_test_p';");
      expect(c).toContain("const baseUrl = 'http://127.0.0.1:8080';");
      expect(c).not.toMatch(/publicKey|public-key/);
    }
    expect(byId.react).toContain('<GetPaymentPage\n        clientKey={clientKey}\n        baseUrl={baseUrl}');
    expect(byId.react).toContain('<CompletedTransactions clientKey={clientKey} baseUrl={baseUrl} />');
    expect(byId.vue).toContain(':client-key="clientKey"\n    :base-url="baseUrl"');
    expect(byId.vue).toContain('<CompletedTransactions :client-key="clientKey" :base-url="baseUrl" />');
    expect(byId.verify).toContain("'whsec_s'");
    expect(byId.verify).toContain("from '@remit/sdk'");
  });

  it('read the secret key from the environment when this tab does not have it', () => {
    const curl = snippets({ ...keys, secretKey: null }).find((s) => s.id === 'curl')!.code;
    // Double quotes: the shell expands the variable (in single quotes curl would send "$REMIT_SECRET_KEY" itself).
    expect(curl).toContain('-u "cl_abc:$REMIT_SECRET_KEY"');
    expect(curl).not.toContain('sk_test_secret');
  });
});
