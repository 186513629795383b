/**
 * Sends and their recipients (`bag_newsletter_sends`, `bag_newsletter_recipients`). The recipients are fixed in one
 * INSERT … SELECT when a send starts; any instance claims a batch of them with a lease (docs/newsletters.md#delivery):
 * on PostgreSQL `FOR UPDATE SKIP LOCKED`, as job queues do, so two instances never take the same rows; on SQLite one
 * UPDATE … WHERE id IN (SELECT … LIMIT n) RETURNING, atomic since SQLite runs one writer at a time.
 */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { tableOf } from '../../platform/columns';

const SEND = uid('newsletter-send');
const RECIPIENT = uid('newsletter-recipient');
const SUBSCRIBER = uid('newsletter-subscriber');
const USER = 'plugin::users-permissions.user';

export type SendStatus = 'queued' | 'sending' | 'done' | 'cancelled';

export interface SendRow {
  id: number;
  newsletter: string;
  article: string;
  locale: string | null;
  status: SendStatus;
  total: number;
  createdAt: string | Date;
  finishedAt: string | Date | null;
}

export interface ClaimedRecipient {
  id: number;
  email: string;
  locale: string;
  subscriberId: number;
  tries: number;
}

const rowsOf = (result: unknown): Array<Record<string, unknown>> => (Array.isArray(result) ? result : (result as { rows: Array<Record<string, unknown>> }).rows);

/** Creates the send; false when this article was already sent by this newsletter (the unique pair). */
export const insertSend = async (strapi: Core.Strapi, data: { newsletter: string; article: string; locale: string | null }): Promise<SendRow | null> => {
  const existing = await strapi.db.query(SEND).findOne({ where: { newsletter: data.newsletter, article: data.article }, select: ['id'] });
  if (existing) return null;
  try {
    return (await strapi.db.query(SEND).create({ data: { ...data, status: 'queued', total: 0 } })) as SendRow;
  } catch (error) {
    // Two starts at once: the unique (newsletter, article) lets one through.
    if (await strapi.db.query(SEND).findOne({ where: { newsletter: data.newsletter, article: data.article }, select: ['id'] })) return null;
    throw error;
  }
};

export const sendById = (strapi: Core.Strapi, id: number): Promise<SendRow | null> => strapi.db.query(SEND).findOne({ where: { id } }) as Promise<SendRow | null>;

export const listSends = (strapi: Core.Strapi, where: Record<string, unknown>, limit = 200): Promise<SendRow[]> =>
  strapi.db.query(SEND).findMany({ where, orderBy: { id: 'desc' }, limit }) as Promise<SendRow[]>;

export const activeSends = (strapi: Core.Strapi): Promise<SendRow[]> =>
  strapi.db.query(SEND).findMany({ where: { status: { $in: ['queued', 'sending'] } }, orderBy: { id: 'asc' } }) as Promise<SendRow[]>;

/** Moves a send from one of `from` to `to`; whether this call did. */
export const moveSend = async (strapi: Core.Strapi, id: number, from: SendStatus[], to: SendStatus, finishedAt?: Date): Promise<boolean> => {
  const { count } = await strapi.db.query(SEND).updateMany({ where: { id, status: { $in: from } }, data: { status: to, ...(finishedAt ? { finishedAt } : {}) } });
  return Number(count) === 1;
};

/**
 * Fixes the recipients of a send: the newsletter's active subscribers in `locales` (members by their account's
 * current address, blocked accounts left out), one row per address. Returns how many.
 */
export const fixRecipients = async (strapi: Core.Strapi, sendId: number, newsletter: string, locales: string[]): Promise<number> => {
  if (locales.length === 0) return 0;
  const r = tableOf(strapi, RECIPIENT).table;
  const s = tableOf(strapi, SUBSCRIBER).table;
  const u = tableOf(strapi, USER).table;
  const marks = locales.map(() => '?').join(', ');
  await strapi.db.connection.raw(
    `INSERT INTO ?? (send_id, subscriber_id, email, locale, state, tries)
     SELECT ?, s.id, lower(coalesce(s.email, u.email)), s.locale, 'pending', 0
     FROM ?? s LEFT JOIN ?? u ON u.id = s.user_id
     WHERE s.newsletter = ? AND s.state = 'active' AND s.locale IN (${marks})
       AND coalesce(s.email, u.email) IS NOT NULL AND (s.user_id IS NULL OR (u.id IS NOT NULL AND (u.blocked IS NULL OR u.blocked = ?)))
     ORDER BY s.id
     ON CONFLICT (send_id, email) DO NOTHING`,
    [r, sendId, s, u, newsletter, ...locales, false]
  );
  const count = await strapi.db.query(RECIPIENT).count({ where: { sendId } });
  await strapi.db.query(SEND).update({ where: { id: sendId }, data: { total: count } });
  return count;
};

/**
 * Of the batch just claimed, the recipients whose subscription is no longer active (left, or gone with its account)
 * are skipped; returns their ids. Only the batch's rows are checked, by primary key: a check of every pending
 * recipient of the send before each batch read all of them each time (on SQLite, 78 ms of a blocked event loop per
 * batch at 100,000 recipients; docs/newsletters.md#measured).
 */
export const skipLeft = async (strapi: Core.Strapi, ids: number[]): Promise<Set<number>> => {
  if (ids.length === 0) return new Set();
  const r = tableOf(strapi, RECIPIENT).table;
  const s = tableOf(strapi, SUBSCRIBER).table;
  const result = await strapi.db.connection.raw(
    `UPDATE ?? SET state = 'skipped', leased_until = NULL WHERE id IN (${ids.map(() => '?').join(', ')}) AND state = 'pending'
       AND NOT EXISTS (SELECT 1 FROM ?? s WHERE s.id = ??.subscriber_id AND s.state = 'active')
     RETURNING id`,
    [r, ...ids, s, r]
  );
  return new Set(rowsOf(result).map((row) => Number(row.id)));
};

/** Claims up to `limit` pending recipients of a send not leased by anyone at `now`, leased to `until`. */
export const claimBatch = async (strapi: Core.Strapi, sendId: number, limit: number, now: number, until: number): Promise<ClaimedRecipient[]> => {
  const r = tableOf(strapi, RECIPIENT).table;
  const free = `send_id = ? AND state = 'pending' AND (leased_until IS NULL OR leased_until < ?)`;
  const result =
    strapi.db.dialect.client === 'postgres'
      ? await strapi.db.connection.raw(
          `WITH next AS (SELECT id FROM ?? WHERE ${free} ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
           UPDATE ?? AS r SET leased_until = ? FROM next WHERE r.id = next.id
           RETURNING r.id, r.email, r.locale, r.subscriber_id, r.tries`,
          [r, sendId, now, limit, r, until]
        )
      : await strapi.db.connection.raw(
          `UPDATE ?? SET leased_until = ? WHERE id IN (SELECT id FROM ?? WHERE ${free} ORDER BY id LIMIT ?)
           RETURNING id, email, locale, subscriber_id, tries`,
          [r, until, r, sendId, now, limit]
        );
  return rowsOf(result)
    .map((row) => ({ id: Number(row.id), email: String(row.email), locale: String(row.locale), subscriberId: Number(row.subscriber_id), tries: Number(row.tries) }))
    .sort((a, b) => a.id - b.id);
};

/** Gives back the lease of recipients this instance claimed and will not mail (it is stopping). */
export const releaseLeases = (strapi: Core.Strapi, ids: number[]) =>
  ids.length ? strapi.db.query(RECIPIENT).updateMany({ where: { id: { $in: ids }, state: 'pending' }, data: { leasedUntil: null } }) : Promise.resolve();

/** One statement (the query engine's update reads the row before and after it: three per mail). */
export const markSent = (strapi: Core.Strapi, id: number) =>
  strapi.db.connection(tableOf(strapi, RECIPIENT).table).where({ id }).update({ state: 'sent', leased_until: null });

export const markSkipped = (strapi: Core.Strapi, id: number) => strapi.db.query(RECIPIENT).update({ where: { id }, data: { state: 'skipped', leasedUntil: null } });

/** A refusal: tried again later, unless this was the third try (then `failed`). */
export const markRefused = (strapi: Core.Strapi, id: number, tries: number, maxTries: number) =>
  strapi.db.query(RECIPIENT).update({ where: { id }, data: { tries: tries + 1, leasedUntil: null, state: tries + 1 >= maxTries ? 'failed' : 'pending' } });

/** Pending recipients of a send (leased or not). */
export const countPending = (strapi: Core.Strapi, sendId: number): Promise<number> => strapi.db.query(RECIPIENT).count({ where: { sendId, state: 'pending' } });

/** Recipients by state, per send. */
export const recipientCounts = async (strapi: Core.Strapi, sendIds: number[]): Promise<Map<number, Record<string, number>>> => {
  const out = new Map<number, Record<string, number>>();
  if (sendIds.length === 0) return out;
  const r = tableOf(strapi, RECIPIENT).table;
  const rows = (await strapi.db.connection(r).whereIn('send_id', sendIds).select('send_id', 'state').count({ count: '*' }).groupBy('send_id', 'state')) as Array<{
    send_id: unknown;
    state: string;
    count: unknown;
  }>;
  for (const row of rows) {
    const id = Number(row.send_id);
    out.set(id, { ...(out.get(id) ?? {}), [row.state]: Number(row.count) });
  }
  return out;
};
