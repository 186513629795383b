/**
 * Slug history of articles and pages (docs/redirects.md): the slug a document had when published in a locale, kept
 * once it is published with another one (or unpublished), and the editors' own redirects. An old slug answers with the
 * document's current published slug in the same locale, unless a published document has that slug now (it is then
 * that document's). knex for the two reads that join the history to the published rows: the Document Service cannot
 * join a type to another by `documentId`.
 */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { tableOf } from '../../platform/columns';

export type RedirectKind = 'article' | 'page';

const HISTORY = uid('slug-redirect');
const EDITORS = uid('redirect');

/** A published version's locale and slug. */
export interface SlugRow {
  locale: string;
  slug: string;
}

/** An old slug in a locale and the slug the same document has there now. */
export interface MovedRow {
  locale: string;
  from: string;
  to: string;
}

/** An editor's redirect as stored. */
export interface EditorRedirectRow {
  from: string;
  to: string | null;
  statusCode: number;
}

/** The published versions (locale, slug) of a document. */
export const publishedSlugs = async (strapi: Core.Strapi, kind: RedirectKind, documentId: string): Promise<SlugRow[]> => {
  const rows = (await strapi.db.query(uid(kind)).findMany({
    select: ['locale', 'slug'],
    where: { documentId, publishedAt: { $notNull: true } },
  })) as { locale: string | null; slug: string | null }[];
  return rows.filter((row): row is SlugRow => typeof row.locale === 'string' && typeof row.slug === 'string' && row.slug !== '');
};

/** Keeps `slug` (in `locale`) as a former slug of `documentId`; a slug recorded before for another document becomes this one's. */
export const recordSlug = async (strapi: Core.Strapi, kind: RedirectKind, locale: string, slug: string, documentId: string) => {
  const history = strapi.db.query(HISTORY);
  const where = { kind, slugLocale: locale, slug };
  const found = (await history.findOne({ select: ['id', 'target'], where })) as { id: number; target: string } | null;
  if (!found) await history.create({ data: { ...where, target: documentId } });
  else if (found.target !== documentId) await history.update({ where: { id: found.id }, data: { target: documentId } });
};

/** The history and the type's table, with the join that finds an old slug's document's published version in its locale. */
const moved = (strapi: Core.Strapi, kind: RedirectKind) => {
  const h = tableOf(strapi, HISTORY);
  const d = tableOf(strapi, uid(kind));
  const knex = strapi.db.connection;
  const taken = knex(`${d.table} as t`)
    .select(knex.raw('1'))
    .whereRaw('?? = ??', [`t.${d.column('slug')}`, `h.${h.column('slug')}`])
    .whereRaw('?? = ??', [`t.${d.column('locale')}`, `h.${h.column('slugLocale')}`])
    .whereNotNull(`t.${d.column('publishedAt')}`);
  return knex(`${h.table} as h`)
    .join(`${d.table} as d`, function joinCurrent() {
      this.on(`d.${d.column('documentId')}`, '=', `h.${h.column('target')}`).andOn(`d.${d.column('locale')}`, '=', `h.${h.column('slugLocale')}`);
    })
    .select({ locale: `h.${h.column('slugLocale')}`, from: `h.${h.column('slug')}`, to: `d.${d.column('slug')}` })
    .where(`h.${h.column('kind')}`, kind)
    .whereNotNull(`d.${d.column('publishedAt')}`)
    .whereRaw('?? <> ??', [`d.${d.column('slug')}`, `h.${h.column('slug')}`])
    .whereNotExists(taken);
};

/** The current slug of the document `slug` belonged to in `locale`; null when none (unknown, or the document is gone or unpublished there). */
export const movedSlug = async (strapi: Core.Strapi, kind: RedirectKind, locale: string, slug: string): Promise<string | null> => {
  const h = tableOf(strapi, HISTORY);
  const row = (await moved(strapi, kind)
    .where(`h.${h.column('slugLocale')}`, locale)
    .where(`h.${h.column('slug')}`, slug)
    .first()) as MovedRow | undefined;
  return row ? row.to : null;
};

/** Every old slug that answers, in every locale, by locale and slug. */
export const movedSlugs = async (strapi: Core.Strapi, kind: RedirectKind): Promise<MovedRow[]> => {
  const h = tableOf(strapi, HISTORY);
  return (await moved(strapi, kind).orderBy([`h.${h.column('slugLocale')}`, `h.${h.column('slug')}`])) as MovedRow[];
};

/** The editors' published redirects, by `from` (a draft answers nothing until it is published). */
export const editorRedirects = async (strapi: Core.Strapi): Promise<EditorRedirectRow[]> =>
  (await strapi.db.query(EDITORS).findMany({
    select: ['from', 'to', 'statusCode'],
    where: { publishedAt: { $notNull: true } },
    orderBy: { from: 'asc' },
  })) as EditorRedirectRow[];

/**
 * The versions of the editors' redirects whose `from` may name `path` once normalized (a trailing slash dropped,
 * percent-encoding decoded): `from` is `path` or `path/` (both by the index on `from`), or has a `%` or ends in `//`,
 * which only these can. The loop check filters them exactly; it reads no other redirect.
 */
export const editorRedirectVersionsFrom = async (strapi: Core.Strapi, path: string): Promise<(EditorRedirectRow & { documentId: string })[]> =>
  (await strapi.db.query(EDITORS).findMany({
    select: ['documentId', 'from', 'to', 'statusCode'],
    where: { $or: [{ from: { $in: [path, `${path}/`] } }, { from: { $contains: '%' } }, { from: { $endsWith: '//' } }] },
  })) as (EditorRedirectRow & { documentId: string })[];

/** The draft of an editor's redirect (what an update without `status` changes), else its published version. */
export const editorRedirectDraft = async (strapi: Core.Strapi, documentId: string): Promise<EditorRedirectRow | null> => {
  const rows = (await strapi.db.query(EDITORS).findMany({ select: ['from', 'to', 'statusCode', 'publishedAt'], where: { documentId } })) as (EditorRedirectRow & {
    publishedAt: unknown;
  })[];
  return rows.find((row) => row.publishedAt === null || row.publishedAt === undefined) ?? rows[0] ?? null;
};

/** Published rows of `kind` whose slug is one of `slugs`, with their ids (the sitemap leaves out redirected paths). */
export const publishedWithSlugs = async (strapi: Core.Strapi, kind: string, slugs: string[]): Promise<(SlugRow & { id: number })[]> => {
  if (slugs.length === 0) return [];
  const rows = (await strapi.db.query(uid(kind)).findMany({
    select: ['id', 'locale', 'slug'],
    where: { slug: { $in: slugs }, publishedAt: { $notNull: true } },
  })) as (SlugRow & { id: number })[];
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
};
