import { type Ctx, resealAll, resealOutcome } from '@remit/core';
import type { FastifyBaseLogger } from 'fastify';

/**
 * On PGlite one process owns the data folder, so `keys reseal` cannot run beside the server: a server
 * started there with REMIT_ENCRYPTION_KEY_PREVIOUS reseals by itself, in batches between requests.
 * A shutdown stops it between batches; the next start goes on where it stopped.
 */
export function resealInBackground(ctx: Pick<Ctx, 'db' | 'vault'>, log: FastifyBaseLogger): { stop(): Promise<void> } {
  const abort = new AbortController();
  log.info({ key_id: ctx.vault.keyId }, `keys: resealing every value with key ${ctx.vault.keyId} in the background`);
  const running = resealAll(ctx, { signal: abort.signal }).then(
    (report) => {
      if (abort.signal.aborted) log.info('keys: reseal stopped by the shutdown; the next start goes on');
      else if (report.done) log.info({ resealed: report.resealed }, `keys: ${resealOutcome(report)}`);
      else log.warn({ left: report.left, unreadable: report.unreadable }, `keys: ${resealOutcome(report)}`);
    },
    (err: Error) => {
      if (!abort.signal.aborted)
        log.warn({ cause: err.message }, 'keys: the reseal failed; the next start tries again');
    },
  );
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}
