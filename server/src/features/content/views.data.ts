/**
 * View counters of articles and pages: one counter per document, kept on every row of the document (draft and
 * published of every locale, so a later publish, which copies the draft over the published row, keeps the count).
 */
import type { Core, UID } from '@strapi/strapi';
import { tableOf } from '../../platform/columns';
import { qualifiedTable, quoted, runPrepared, sqliteTransaction } from '../../platform/prepared';

const DAYS = 'bag_view_days';

/** SQLite's upsert of one day row: adds to it, so concurrent instances never overwrite each other's counts. */
const dayUpsert = (table: string) =>
  `INSERT INTO ${table} AS d (kind, document, locale, day, views) VALUES (?, ?, ?, ?, ?) ` +
  `ON CONFLICT (kind, document, locale, day) DO UPDATE SET views = d.views + excluded.views RETURNING views`;

/**
 * Adds `count` views to every row of the document and returns the new count: the highest of the rows (a locale added
 * later starts lower), null when the document has no row. The Document Service can only read-then-write; one
 * UPDATE … SET views = views + n is atomic under concurrency. Every detail read runs it, cached or not (several reads of
 * one document in one statement: features/content/view-batches.ts), so it is a prepared statement
 * (platform/prepared.ts). `days`: the same write adds the reads to the document's day per locale (docs/readers.md),
 * an upsert on the day table's unique key, so concurrent instances add rather than overwrite: on PostgreSQL in the
 * UPDATE's own statement (a data-modifying WITH), on SQLite in its transaction, one commit for both
 * (docs/readers.md#measured). The day rows are written only when the document has rows.
 */
export const addViews = async (
  strapi: Core.Strapi,
  uid: UID.ContentType,
  documentId: string,
  count: number,
  days?: { kind: string; day: string; locales: Map<string, number> },
): Promise<number | null> => {
  const { table, column } = tableOf(strapi, uid);
  const views = quoted(column('views'));
  const documentIdColumn = quoted(column('documentId'));
  const qualified = qualifiedTable(strapi, table);
  const dayTable = qualifiedTable(strapi, DAYS);
  const counted = (rows: Record<string, unknown>[]) => (rows.length === 0 ? null : Math.max(...rows.map((row) => Number(row.views))));
  const locales = [...(days?.locales ?? [])];
  if (strapi.db.dialect.client === 'postgres') {
    // The document's rows locked in id order first (FOR UPDATE … ORDER BY id): concurrent reads of one document
    // queue on its first row instead of deadlocking (a plain UPDATE of several rows can visit them in different
    // orders as their versions move, and PostgreSQL then aborts one after deadlock_timeout).
    const update = `UPDATE ${qualified} SET ${views} = ${views} + $1 WHERE id IN (SELECT id FROM ${qualified} WHERE ${documentIdColumn} = $2 ORDER BY id FOR UPDATE) RETURNING ${views} AS views`;
    if (locales.length === 0) return counted(await runPrepared(strapi, { sqlite: '', postgres: update }, [count, documentId]));
    const text =
      `WITH counted AS (${update}), added AS (INSERT INTO ${dayTable} AS d (kind, document, locale, day, views) ` +
      `SELECT $3, $2, x.locale, $4, x.views FROM unnest($5::text[], $6::int[]) AS x(locale, views) WHERE EXISTS (SELECT 1 FROM counted) ` +
      `ON CONFLICT (kind, document, locale, day) DO UPDATE SET views = d.views + excluded.views) SELECT views FROM counted`;
    return counted(await runPrepared(strapi, { sqlite: '', postgres: text }, [count, documentId, days!.kind, days!.day, locales.map(([locale]) => locale), locales.map(([, n]) => n)]));
  }
  return sqliteTransaction(strapi, (run) => {
    const rows = run(`UPDATE ${qualified} SET ${views} = ${views} + ? WHERE ${documentIdColumn} = ? RETURNING ${views} AS views`, [count, documentId]);
    if (rows.length > 0) for (const [locale, n] of locales) run(dayUpsert(dayTable), [days!.kind, documentId, locale, days!.day, n]);
    return counted(rows);
  });
};

/** The current count of the document (the highest of its rows), null when it has none: a read that counts nothing. */
export const currentViews = async (strapi: Core.Strapi, uid: UID.ContentType, documentId: string): Promise<number | null> => {
  const { table, column } = tableOf(strapi, uid);
  const rows = await runPrepared(
    strapi,
    {
      sqlite: `SELECT max(${quoted(column('views'))}) AS views FROM ${qualifiedTable(strapi, table)} WHERE ${quoted(column('documentId'))} = ?`,
      postgres: `SELECT max(${quoted(column('views'))}) AS views FROM ${qualifiedTable(strapi, table)} WHERE ${quoted(column('documentId'))} = $1`,
    },
    [documentId],
  );
  return rows[0]?.views === null || rows[0]?.views === undefined ? null : Number(rows[0].views);
};

/** Whether the document has a version (draft or published) in `locale` yet. */
export const hasLocaleVersion = async (strapi: Core.Strapi, uid: UID.ContentType, documentId: string, locale: string) =>
  (await strapi.db.query(uid).count({ where: { documentId, locale } })) > 0;

/**
 * A locale version created later (Content Manager, `documents(uid).update({ documentId, locale, data })`) starts with
 * the schema's default: its rows are set to the highest count of the document's other rows, in one statement (a read
 * counted meanwhile reaches every row, the new ones included, so the maximum includes it).
 */
export const alignLocaleViews = async (strapi: Core.Strapi, uid: UID.ContentType, documentId: string, locale: string) => {
  const { table, column } = tableOf(strapi, uid);
  const knex = strapi.db.connection;
  const views = column('views');
  const others = knex(`${table} as o`)
    .max(`o.${views}`)
    .where(`o.${column('documentId')}`, documentId)
    .whereNot(`o.${column('locale')}`, locale);
  await knex(table)
    .where(column('documentId'), documentId)
    .where(column('locale'), locale)
    .update({ [views]: knex.raw('coalesce((?), ??)', [others, views]) });
};
