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

export function snippets(k: SnippetKeys): Array<{ id: string; title: string; lang: string; code: string }> {
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
  -u '${k.clientId}:${secret}' \\
  -H 'content-type: application/json' \\
  -d '{"merchant_key": "${mk}", "amount": "10.00"}'`,
    },
    {
      id: 'script',
      title: 'The script tag',
      lang: 'html',
      code: `<script src="${k.origin}/js/dynamic-launch.js?remit_merchant_public_key=${pk}" async></script>`,
    },
    {
      id: 'react',
      title: 'React',
      lang: 'tsx',
      code: `import { GetPaymentPage } from '@remit/react';

export function Checkout() {
  return <GetPaymentPage publicKey="${pk}" amount="10.00" onSuccess={(r) => console.log(r.transaction_id)} />;
}`,
    },
    {
      id: 'vue',
      title: 'Vue',
      lang: 'vue',
      code: `<script setup lang="ts">
import { GetPaymentPage } from '@remit/vue';
</script>

<template>
  <GetPaymentPage public-key="${pk}" amount="10.00" @success="(r) => console.log(r.transaction_id)" />
</template>`,
    },
    {
      id: 'verify',
      title: 'Verify a webhook with @remit/sdk',
      lang: 'ts',
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
}).listen(4000);`,
    },
  ];
}
