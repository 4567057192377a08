import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type DatabaseEvent, messagingOf, openCore, startWorkers, twilioSettingsFromEnv } from '@remit/core';
import { buildApp, loggerOptions } from './app.js';
import { resealInBackground } from './background-reseal.js';
import { coreOptions } from './config.js';
import { batchedLog } from './log-destination.js';
import { drainOnSignals } from './shutdown.js';
import { createMetrics } from './metrics.js';
import { startupCheck } from './production-checks.js';
import { registerPayPageDomain } from './wallet-domain.js';

/** A start-up failure (configuration, database) ends the process with one readable line, no stack. */
async function orExit<T>(what: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    console.error(`remit: ${what}: ${cause ?? (err as Error).message}`);
    process.exit(1);
  }
}

// Everything this process writes (the embedded database, check images, the sandbox key) is owner-only.
process.umask(0o077);
const { config, workerOptions, lines: refusals } = startupCheck(process.env);
if (refusals.length > 0) {
  for (const line of refusals) console.error(line);
  process.exit(1);
}
const where = config.databaseUrl ? 'the Postgres at DATABASE_URL' : `the embedded database in ${config.dataDir}`;
// Setting up a new embedded database takes a while (half a minute on a small machine): say so, not silence.
if (!config.databaseUrl && !existsSync(join(config.dataDir, 'PG_VERSION'))) {
  console.error(`remit: initialising database in ${config.dataDir}… (a new data folder, set up once)`);
}
// Database lost and back, replicas skipped and used again: one line each, to the server's log once it exists.
let databaseLog = (e: DatabaseEvent) => console.error(`remit: ${e.message}`);
const core = await orExit(`cannot open ${where}`, () =>
  openCore({
    ...coreOptions(config),
    onDatabaseEvent: (e) => databaseLog(e),
    messaging: messagingOf(config.env, workerOptions),
    // Every process verifies Twilio's status callbacks, a REMIT_WORKERS=off one too.
    twilioAuthToken: twilioSettingsFromEnv(process.env)?.authToken,
    // The embedded database's thread died: every request would fail. End the process, so that its
    // supervisor starts it again (the data folder's lock goes with it).
    onDatabaseLost: (err) => {
      console.error(`remit: lost ${where}: ${err.message}`);
      process.exit(1);
    },
  }),
);
const metrics = createMetrics(core);
const app = await buildApp(core, {
  metrics: { metrics, token: config.metricsToken },
  logger: loggerOptions(config.logLevel, batchedLog()),
  payDir: config.payDir,
  portalDir: config.portalDir,
  rateLimits: config.rateLimits,
  widgetLimits: config.widgetLimits,
  trustProxy: config.trustProxy,
  timeLimits: config.timeLimits,
  operator: config.operator,
});
databaseLog = (e) => app.log[e.level]({ database: true }, e.message);
await orExit(`cannot listen on ${config.host}:${config.port}`, () =>
  app.listen({ port: config.port, host: config.host }),
);
void registerPayPageDomain(core.ctx, app.log);
// Webhook and message dispatchers: every server process runs them unless REMIT_WORKERS=off (an
// API-only process beside worker processes on one Postgres); they share work through the database.
const workers =
  process.env.REMIT_WORKERS === 'off'
    ? null
    : startWorkers(core.ctx, { ...metrics.workerOptions(workerOptions), retention: config.retention, logger: app.log });
// With a previous key on PGlite the server reseals by itself: the CLI cannot open the folder beside it.
const resealing =
  core.database.kind === 'pglite' && config.previousEncryptionKey ? resealInBackground(core.ctx, app.log) : null;
if (core.ctx.processor.name === 'none') {
  app.log.warn(
    { processor: 'none' },
    `No payment processor is configured (REMIT_PROCESSOR): this ${config.env} server refuses every payment with 503 processor_unavailable until a real connector is configured.`,
  );
}
if (!core.ctx.checkDeposits) {
  app.log.warn(
    { check_deposits: 'none' },
    'No check-deposit provider is configured (REMIT_CHECK_DEPOSITS): remote deposit capture answers ach_account_not_found.',
  );
}
if (core.movedCheckImages.moved > 0 || core.movedCheckImages.left.length > 0) {
  app.log.info(
    { moved: core.movedCheckImages.moved, left: core.movedCheckImages.left },
    `Moved ${core.movedCheckImages.moved} check images from ${config.dataDir}/deposits into the database; files of no known deposit were left in place.`,
  );
}
app.log.info(
  {
    env: config.env,
    processor: core.ctx.processor.name,
    check_images: core.ctx.checkImages.name,
    database: core.database.kind,
    publicUrl: config.publicUrl,
  },
  `Remit ${config.env} listening on http://${config.host}:${config.port}`,
);

drainOnSignals(
  {
    http: () => app.close(),
    workers: async () => void (await Promise.all([workers?.stop(), resealing?.stop()])),
    database: () => core.close(),
  },
  app.log,
  config.shutdownTimeoutMs,
);
