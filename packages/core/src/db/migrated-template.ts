// The Postgres side of the migrated image: a template database migrated once per migration set, that
// test databases are copied from (CREATE DATABASE … TEMPLATE copies files: a fraction of the time of
// running every migration against a new database).
import pg from 'pg';
import { connectDatabase } from './connect.js';
import { imageKey } from './migrated-image.js';

// Made once per process (the suite's workers each ask; the first to ask makes it, the others wait).
let made: Promise<string> | undefined;

/** The name of the migrated template on the Postgres at `adminUrl`, made there if it is not yet. */
export function migratedTemplate(adminUrl: string): Promise<string> {
  made ??= makeTemplate(adminUrl);
  made.catch(() => (made = undefined));
  return made;
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `remit_tpl_${imageKey().slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // One maker at a time across workers and concurrent runs; the others find it made.
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await admin.query<{ datistemplate: boolean }>(
      'select datistemplate from pg_database where datname = $1',
      [name],
    );
    if (found.rows[0]?.datistemplate) return name;
    // A template left half made (a run cut short before it was marked) is made again.
    if (found.rowCount) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await (await connectDatabase({ databaseUrl: url.toString(), poolSize: 1 })).close();
    await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
    await admin.end();
  }
}
