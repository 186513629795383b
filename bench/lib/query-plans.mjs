/**
 * Query plans: the SQL of one host article-list request, explained on the seeded SQLite file with and without the
 * plugin's `bag_idx_*` indexes (dropped inside a transaction that is rolled back).
 */
import { createRequire } from 'module';
import { QUICK } from './options.mjs';
import { probe } from './measure.mjs';
import { pairs } from './scenarios.mjs';
import { ask } from './server-process.mjs';

const require = createRequire(import.meta.url);

export async function queryPlans(server, fx, db) {
  await ask(server, { type: 'capture', on: true }, 'capturing');
  const request = pairs(fx)[0].host;
  await probe(server, request);
  const { queries } = await ask(server, { type: 'capture', on: false }, 'capture');
  const Database = require('better-sqlite3');
  const sqlite = new Database(db.abs);
  const bind = (bindings) =>
    bindings.map((b) => (typeof b === 'boolean' ? Number(b) : b instanceof Date ? b.getTime() : b));
  const explain = (sql, bindings) => {
    const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bind(bindings));
    const depth = new Map([[0, -1]]);
    return rows.map((row) => {
      depth.set(row.id, (depth.get(row.parent) ?? -1) + 1);
      return `${'  '.repeat(depth.get(row.id))}${row.detail}`;
    });
  };
  const time = (sql, bindings) => {
    const statement = sqlite.prepare(sql);
    const runs = QUICK ? 5 : 50;
    const begin = process.hrtime.bigint();
    for (let i = 0; i < runs; i += 1) statement.all(...bind(bindings));
    return Number(process.hrtime.bigint() - begin) / 1e6 / runs;
  };
  const relevant = queries.filter((q) => /from [`"]bag_articles[`"]/i.test(q.sql));
  const plans = relevant.map((q) => ({
    sql: q.sql,
    bindings: bind(q.bindings),
    after: { plan: explain(q.sql, q.bindings), ms: time(q.sql, q.bindings) },
  }));
  const ours = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'bag_idx_%'").all();
  sqlite.exec('BEGIN');
  for (const { name } of ours) sqlite.exec(`DROP INDEX "${name}"`);
  for (const plan of plans)
    plan.before = {
      plan: explain(plan.sql, plan.bindings),
      ms: time(plan.sql, plan.bindings),
    };
  sqlite.exec('ROLLBACK');
  sqlite.close();
  return {
    request: request.path,
    indexes: ours.map((i) => i.name),
    queries: plans,
  };
}

