/** The snippets, filled with the reader's own keys; placeholders where a key is not at hand. */
export interface SnippetKeys {
  origin: string;
  clientId: string;
  /** Known only right after the credentials were made in this tab. */
  secretKey: string | null;
  merchantKey: string | null;
  publicKey: string | null;
  signingSecret: string | null;
}

export interface Snippet {
  id: string;
  title: string;
  lang: string;
  code: string;
  /** How to install the package the code imports, which no registry has yet. */
  install?: string;
}

/** `@remit/x` is not on a registry: its tarball, packed from a checkout of the server's version (docs/embedding.md). */
const fromTarball = (name: string) =>
  `${name} is not on a registry yet: in a checkout of this server's Remit version, npm ci, then npm pack -w ${name} --pack-destination /tmp/remit-packages; in your project, npm install /tmp/remit-packages/${name.slice(1).replace('/', '-')}-<version>.tgz (docs/embedding.md, "Installing the packages").`;

export function snippets(k: SnippetKeys): Snippet[] {
  // In double quotes, so the shell expands $REMIT_SECRET_KEY (single quotes would send the name itself).
  const secret = k.secretKey ?? '$REMIT_SECRET_KEY';
  const mk = k.merchantKey ?? 'mk_test_…';
  const pk = k.publicKey ?? 'pk_test_…';
  const whsec = k.signingSecret ?? 'whsec_…';
  return [
    {
      id: 'curl',
      title: 'Create a pay link with curl',
      lang: 'shell',
      code: `curl -s ${k.origin}/api/v1/pay-link \\
  -u "${k.clientId}:${secret}" \\
  -H 'content-type: application/json' \\
  -d '{"merchant_key": "${mk}", "amount": "10.00"}'`,
    },
    {
      id: 'script',
      title: 'The script tag: a pay button and the payments table',
      lang: 'html',
      code: `<script src="${k.origin}/js/dynamic-launch.js?remit_merchant_public_key=${pk}"></script>

<button id="remit-pay" type="button">Pay $10.00</button>
<p id="remit-status" role="status"></p>
<table id="remit_complete_transactions"></table>

<script>
  document.getElementById('remit-pay').addEventListener('click', () => {
    const status = document.getElementById('remit-status');
    getPaymentPage('10.00').then(
      (r) => (status.textContent = r.status === 'succeeded' ? 'Paid: ' + r.transaction_id : 'Payment window closed'),
      (e) => (status.textContent = 'Error: ' + e.message),
    );
  });
</script>`,
    },
    {
      id: 'react',
      title: 'React (@remit/react)',
      lang: 'tsx',
      install: fromTarball('@remit/react'),
      code: `import { useState } from 'react';
import { CompletedTransactions, GetPaymentPage } from '@remit/react';

const clientKey = '${pk}';
const baseUrl = '${k.origin}';

export function Checkout() {
  const [status, setStatus] = useState('');
  return (
    <>
      <GetPaymentPage
        clientKey={clientKey}
        baseUrl={baseUrl}
        amount="10.00"
        onSuccess={(r) => setStatus(\`Paid: \${r.transaction_id}\`)}
        onClose={() => setStatus('Payment window closed')}
        onError={(e) => setStatus(\`Error: \${e.message}\`)}
      >
        Pay $10.00
      </GetPaymentPage>
      <p role="status">{status}</p>
      <CompletedTransactions clientKey={clientKey} baseUrl={baseUrl} />
    </>
  );
}`,
    },
    {
      id: 'vue',
      title: 'Vue (@remit/vue)',
      lang: 'vue',
      install: fromTarball('@remit/vue'),
      code: `<script setup lang="ts">
import { ref } from 'vue';
import { CompletedTransactions, GetPaymentPage } from '@remit/vue';

const clientKey = '${pk}';
const baseUrl = '${k.origin}';
const status = ref('');
</script>

<template>
  <GetPaymentPage
    :client-key="clientKey"
    :base-url="baseUrl"
    amount="10.00"
    @success="(r) => (status = \`Paid: \${r.transaction_id}\`)"
    @close="status = 'Payment window closed'"
    @error="(e) => (status = \`Error: \${e.message}\`)"
  >
    Pay $10.00
  </GetPaymentPage>
  <p role="status">{{ status }}</p>
  <CompletedTransactions :client-key="clientKey" :base-url="baseUrl" />
</template>`,
    },
    {
      id: 'verify',
      title: 'Verify a webhook with @remit/sdk',
      lang: 'ts',
      install: fromTarball('@remit/sdk'),
      code: `import { createServer } from 'node:http';
import { verifyWebhook } from '@remit/sdk';

const secret = process.env.REMIT_WEBHOOK_SECRET ?? '${whsec}';

createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    try {
      const event = verifyWebhook(secret, req.headers, body);
      console.log(event.event_type, event.data);
      res.writeHead(200).end('ok');
    } catch {
      res.writeHead(400).end('bad signature');
    }
  });
}).listen(Number(process.env.PORT ?? 4000));`,
    },
  ];
}
