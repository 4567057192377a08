// Cypress against a Remit sandbox: started once per run, stopped when Cypress ends. The specs read
// its address, credentials and merchant from Cypress.env('remit').
import { defineConfig } from 'cypress';
import { startRemitSandbox } from './remit-sandbox.mjs';

export default defineConfig({
  e2e: {
    async setupNodeEvents(on, config) {
      // `npx remit-sandbox`: the binary of @remit/testing in node_modules/.bin.
      const remit = await startRemitSandbox({ command: 'npx', args: ['remit-sandbox'] });
      on('after:run', () => remit.stop());
      config.env.remit = { url: remit.url, credentials: remit.credentials, merchant: remit.merchant };
      return config;
    },
  },
});
