/**
 * Fixed-window request counters kept in the database, so every instance sharing it counts together and the
 * counts survive restarts. One atomic upsert per hit (SQLite ≥ 3.35 and PostgreSQL both support
 * INSERT … ON CONFLICT … DO UPDATE … RETURNING), so concurrent hits are never lost.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig, RateLimitName } from '../../config/schema';
import { tableOf } from '../../utils/columns';
import { getService } from '../get-service';
import { uid } from '../../domain/plugin-id';
import { sha256 } from '../../utils/secret-hash';

export interface HitResult {
  allowed: boolean;
  hits: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

const UID = uid('rate-limit');

const rateLimit = ({ strapi }: { strapi: Core.Strapi }) => {
  const columns = () => {
    const { table, column } = tableOf(strapi, UID);
    return { table, bucket: column('bucket'), hits: column('hits'), resetAt: column('resetAt') };
  };

  return {
    /**
     * Counts one request in `bucket` and tells whether it is within `max` per `interval` seconds.
     * The bucket name is stored hashed: it may contain an e-mail address or an IP.
     */
    async hit(bucket: string, { interval, max }: { interval: number; max: number }): Promise<HitResult> {
      const now = getService(strapi, 'clock').now();
      const resetAt = now + interval * 1000;
      const key = sha256(bucket);
      const c = columns();
      const { rows, first } = await strapi.db.connection
        .raw(
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
        )
        .then((result: unknown) => {
          // better-sqlite3 returns the rows as an array, pg as { rows }.
          const list = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ hits: unknown; reset_at: unknown }>;
          return { rows: list, first: list[0] };
        });
      if (!rows.length) throw new Error('rate limit upsert returned no row');
      const hits = Number(first.hits);
      const windowEnd = Number(first.reset_at);
      // The window may have been opened by a request whose clock read a few ms later than ours (statements run in
      // any order, instances' clocks drift), so the remaining time is clamped to the window's length.
      const retryAfter = Math.min(interval, Math.max(1, Math.ceil((windowEnd - now) / 1000)));
      return { allowed: hits <= max, hits, retryAfter };
    },

    /** Counts a request against a configured limit (`rateLimit.<name>`), unless rate limiting is disabled. */
    async check(name: RateLimitName, subject: string, config: PluginConfig): Promise<HitResult> {
      if (!config.rateLimit.enabled) return { allowed: true, hits: 0, retryAfter: 0 };
      return this.hit(`${name}:${subject}`, config.rateLimit[name]);
    },

    /** Takes one hit of `rateLimit.<name>` back from `subject` in its current window (e.g. a login that succeeded). */
    async giveBack(name: RateLimitName, subject: string, config: PluginConfig): Promise<void> {
      if (!config.rateLimit.enabled) return;
      const c = columns();
      await strapi.db
        .connection(c.table)
        .where(c.bucket, sha256(`${name}:${subject}`))
        .andWhere(c.hits, '>', 0)
        .andWhere(c.resetAt, '>', getService(strapi, 'clock').now())
        .decrement(c.hits, 1);
    },

    /** Deletes counters whose window has passed. */
    async purgeExpired(): Promise<number> {
      const c = columns();
      return strapi.db.connection(c.table).where(c.resetAt, '<=', getService(strapi, 'clock').now()).delete();
    },
  };
};

export type RateLimitService = ReturnType<typeof rateLimit>;
export default rateLimit;
