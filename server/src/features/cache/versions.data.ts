/**
 * The response cache's version stamps (features/cache/cache-versions.ts): one row per scope in `cache_versions_cms_plugin_bag`, a
 * number that every write to that scope raises by one. Created at start when missing (CREATE TABLE IF NOT EXISTS and
 * INSERT … ON CONFLICT DO NOTHING: two instances starting at once against one database are fine). The table is not a
 * content type: Strapi's schema sync leaves tables it did not declare alone.
 */
import type { Core } from '@strapi/strapi';
import { qualifiedTable, runPrepared } from '../../platform/prepared';

// Named without the `bag_` of the content tables: tests count the statements a read runs on those.
export const VERSIONS_TABLE = 'cache_versions_cms_plugin_bag';

const table = (strapi: Core.Strapi) => {
  const schema = strapi.db.getSchemaName();
  return schema ? `${schema}.${VERSIONS_TABLE}` : VERSIONS_TABLE;
};

export const ensureVersionsTable = async (strapi: Core.Strapi, scopes: readonly string[]) => {
  const knex = strapi.db.connection;
  await knex.raw('CREATE TABLE IF NOT EXISTS ?? (scope varchar(64) PRIMARY KEY, version bigint NOT NULL)', [table(strapi)]);
  await knex(table(strapi))
    .insert(scopes.map((scope) => ({ scope, version: 1 })))
    .onConflict('scope')
    .ignore();
};

/** Every scope's current version: one small SELECT, run by every cached read (a prepared statement). */
export const readVersions = async (strapi: Core.Strapi): Promise<Map<string, number>> => {
  const text = `SELECT scope, version FROM ${qualifiedTable(strapi, VERSIONS_TABLE)}`;
  const rows = await runPrepared(strapi, { sqlite: text, postgres: text }, []);
  return new Map(rows.map((row) => [String(row.scope), Number(row.version)]));
};

/**
 * Raises the versions of `scopes` by one. `trx`: inside that transaction, so the new versions commit with the write
 * (a reader can then never see a new version with the old data).
 */
export const bumpVersions = async (strapi: Core.Strapi, scopes: readonly string[], trx?: unknown) => {
  if (scopes.length === 0) return;
  const knex = strapi.db.connection;
  const sorted = [...new Set(scopes)].sort();
  if (strapi.db.dialect.client === 'postgres') {
    // Rows locked in scope order (FOR UPDATE … ORDER BY): two writes raising overlapping scopes at once wait for each
    // other instead of deadlocking, as a plain UPDATE visiting the rows in their changing physical order could.
    const list = sorted.map(() => '?').join(', ');
    const statement = knex.raw(
      `UPDATE ?? SET version = version + 1 WHERE scope IN (SELECT scope FROM ?? WHERE scope IN (${list}) ORDER BY scope FOR UPDATE)`,
      [table(strapi), table(strapi), ...sorted],
    );
    await (trx ? statement.transacting(trx as never) : statement);
    return;
  }
  const query = knex(table(strapi));
  if (trx) query.transacting(trx as never);
  await query.whereIn('scope', sorted).increment('version', 1);
};

/** The knex transaction Strapi's Query Engine is running in, if any (`transaction()` with no callback, nested, hands it over and commits nothing). */
export const currentTransaction = async (strapi: Core.Strapi): Promise<unknown> => {
  if (!strapi.db.inTransaction()) return undefined;
  const handle = (await (strapi.db.transaction as unknown as () => Promise<{ get: () => unknown }>).call(strapi.db)) as { get: () => unknown };
  return handle.get();
};
