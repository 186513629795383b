/**
 * The rate-limit counters' table: one row per hashed bucket with its hits and the end of its window. One atomic
 * upsert per hit (SQLite ≥ 3.35 and PostgreSQL both support INSERT … ON CONFLICT … DO UPDATE … RETURNING), so
 * concurrent hits from any instance sharing the database are never lost.
 */
import type { Core } from '@strapi/strapi';
import { uid } from './plugin-id';
import { tableOf } from './columns';
import { qualifiedTable, quoted, runPrepared } from './prepared';

const UID = uid('rate-limit');

const columnsOf = (strapi: Core.Strapi) => {
  const { table, column } = tableOf(strapi, UID);
  return { table, bucket: column('bucket'), hits: column('hits'), resetAt: column('resetAt') };
};

/**
 * Counts one hit in `key`'s window, opening a new window ending at `resetAt` when the stored one ended by `now`.
 * Returns the hits of the window and its end (ms).
 */
export const countHit = async (strapi: Core.Strapi, key: string, now: number, resetAt: number) => {
  const c = columnsOf(strapi);
  const [table, bucket, hits, end] = [qualifiedTable(strapi, c.table), quoted(c.bucket), quoted(c.hits), quoted(c.resetAt)];
  // A prepared statement (platform/prepared.ts): every rate-limited request runs it (the view beacon, docs/readers.md#measured).
  const text = (p: (n: number) => string) =>
    `INSERT INTO ${table} AS t (${bucket}, ${hits}, ${end}) VALUES (${p(1)}, 1, ${p(2)}) ` +
    `ON CONFLICT (${bucket}) DO UPDATE SET ` +
    `${hits} = CASE WHEN t.${end} <= ${p(3)} THEN 1 ELSE t.${hits} + 1 END, ` +
    `${end} = CASE WHEN t.${end} <= ${p(3)} THEN ${p(2)} ELSE t.${end} END ` +
    `RETURNING ${hits} AS hits, ${end} AS reset_at`;
  // SQLite's `?` are bound in the order they appear: key, resetAt, now, now, resetAt.
  const rows = await runPrepared(strapi, { sqlite: text(() => '?'), postgres: text((n) => `$${n}`) }, strapi.db.dialect.client === 'postgres' ? [key, resetAt, now] : [key, resetAt, now, now, resetAt]);
  if (!rows.length) throw new Error('rate limit upsert returned no row');
  return { hits: Number(rows[0].hits), windowEnd: Number(rows[0].reset_at) };
};

/** Takes one hit back from `key`'s window if that window is still open at `now`. */
export const takeHitBack = async (strapi: Core.Strapi, key: string, now: number): Promise<void> => {
  const c = columnsOf(strapi);
  await strapi.db.connection(c.table).where(c.bucket, key).andWhere(c.hits, '>', 0).andWhere(c.resetAt, '>', now).decrement(c.hits, 1);
};

/** Deletes the counters whose window ended by `now`; returns how many. */
export const deleteEndedWindows = async (strapi: Core.Strapi, now: number): Promise<number> => {
  const c = columnsOf(strapi);
  return strapi.db.connection(c.table).where(c.resetAt, '<=', now).delete();
};
