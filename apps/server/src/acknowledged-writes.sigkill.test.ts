import { expect, it } from 'vitest';
import { send, basicAuth } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import { restartableServer } from './testing/restartable.js';

const { start: startServer } = restartableServer();

/**
 * A payments service answers 2xx only for what it has committed: a server process killed outright
 * (SIGKILL, a crash) in the middle of a stream of writes loses none it answered, on the embedded
 * database (PGlite writes each commit's WAL to its files before the answer; recovery replays it) as
 * on Postgres.
 */
it('every write answered 2xx survives a SIGKILL of the server mid-stream', async () => {
  let server = await startServer();
  const cred = await send<{ client_id: string; secret_key: string }>({
    method: 'POST',
    url: `${server.base}/portal/api/credentials`,
  });
  expect(cred.status).toBe(201);
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const acked: string[] = [];
  for (let round = 0; round < 3; round++) {
    const names = Array.from({ length: 15 }, (_, i) => `Shop ${round}-${i}`);
    let answered = 0;
    let killed: Promise<void> | null = null;
    const inFlight = names.map(async (name) => {
      const r = await send({
        method: 'POST',
        url: `${server.base}/api/v1/onboarding`,
        headers: { authorization },
        json: validOnboarding({ business_name: name }),
      }).catch(() => null);
      if (r?.status !== 201) return;
      acked.push(name);
      // Killed while it writes: the later requests are queued or half done.
      if (++answered === 6 + round * 3) killed = server.stop('SIGKILL');
    });
    await Promise.all(inFlight);
    await (killed ?? server.stop('SIGKILL'));
    server = await startServer();
    const list = await send<{ data: { businessname: string }[] }>({
      method: 'GET',
      url: `${server.base}/api/v1/merchant`,
      headers: { authorization },
    });
    expect(list.status).toBe(200);
    const stored = new Set(list.body.data.map((m) => m.businessname));
    // Every answered write is there (the credentials too: the listing authenticated).
    expect(acked.filter((n) => !stored.has(n))).toEqual([]);
  }
  expect(acked.length).toBeGreaterThanOrEqual(6 + 9 + 12);
}, 180_000);
