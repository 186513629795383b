/**
 * The rate-limit counters' table: one row per hashed bucket with its hits and the end of its window. One atomic
 * upsert per hit (SQLite ≥ 3.35 and PostgreSQL both support INSERT … ON CONFLICT … DO UPDATE … RETURNING), so
 * concurrent hits from any instance sharing the database are never lost.
 */
import type { Core } from '@strapi/strapi';
import { uid } from './plugin-id';
import { tableOf } from './columns';

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
  const result: unknown = await strapi.db.connection.raw(
    `INSERT INTO ?? (??, ??, ??) VALUES (?, 1, ?)
     ON CONFLICT (??) DO UPDATE SET
       ?? = CASE WHEN ??.?? <= ? THEN 1 ELSE ??.?? + 1 END,
       ?? = CASE WHEN ??.?? <= ? THEN ? ELSE ??.?? END
     RETURNING ?? AS hits, ?? AS reset_at`,
    [
      c.table, c.bucket, c.hits, c.resetAt, key, resetAt,
      c.bucket,
      c.hits, c.table, c.resetAt, now, c.table, c.hits,
      c.resetAt, c.table, c.resetAt, now, resetAt, c.table, c.resetAt,
      c.hits, c.resetAt,
    ]
  );
  // better-sqlite3 returns the rows as an array, pg as { rows }.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ hits: unknown; reset_at: unknown }>;
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
