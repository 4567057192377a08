import { PgDialect } from 'drizzle-orm/pg-core';
import { refundGuard, refundIsVoid, voidGuard, preauthUpdateGuard } from './rules.js';
const d = new PgDialect();
for (const [n, e] of Object.entries({ refund: refundGuard.allows, refundIsVoid, void: voidGuard.allows, update: preauthUpdateGuard.allows })) {
  const q = d.sqlToQuery(e.sql());
  console.log(n, q.sql, JSON.stringify(q.params));
}
