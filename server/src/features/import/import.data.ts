/** Every query of the import feature (docs/import.md): the runs, the source keys, the lookups a mapping makes. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const IMPORT = uid('import');
const SOURCE = uid('import-source');
const USER = 'plugin::users-permissions.user';

export interface ImportRow {
  id: number;
  source: 'wordpress' | 'disqus';
  status: 'queued' | 'running' | 'done' | 'failed';
  dryRun: boolean;
  processed: number;
  total: number;
  counts: Record<string, number> | null;
  skipped: Array<{ kind: string; sourceId: string; reason: string }> | null;
  error: string | null;
}

const IMPORT_COLUMNS = ['id', 'source', 'status', 'dryRun', 'processed', 'total', 'counts', 'skipped', 'error'];

export const insertImport = (strapi: Core.Strapi, data: Pick<ImportRow, 'source' | 'dryRun' | 'counts'>) =>
  strapi.db.query(IMPORT).create({ data: { ...data, status: 'queued', processed: 0, total: 0, skipped: [] }, select: IMPORT_COLUMNS }) as Promise<ImportRow>;

export const updateImport = (strapi: Core.Strapi, id: number, data: Partial<Omit<ImportRow, 'id'>>) =>
  strapi.db.query(IMPORT).update({ where: { id }, data });

export const importById = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(IMPORT).findOne({ select: IMPORT_COLUMNS, where: { id } }) as Promise<ImportRow | null>;

export interface SourceRow {
  sourceKey: string;
  kind: string;
  targetId: number | null;
  targetDocumentId: string | null;
  path: string | null;
}

export const sourceByKey = (strapi: Core.Strapi, sourceKey: string) =>
  strapi.db.query(SOURCE).findOne({ select: ['sourceKey', 'kind', 'targetId', 'targetDocumentId', 'path'], where: { sourceKey } }) as Promise<SourceRow | null>;

export const insertSource = (strapi: Core.Strapi, data: SourceRow) => strapi.db.query(SOURCE).create({ data, select: ['id'] });

/** The imported articles and pages whose old WordPress address or new front-end path is `path` (Disqus threads). */
export const sourcesByPath = (strapi: Core.Strapi, paths: string[]) =>
  strapi.db.query(SOURCE).findMany({
    select: ['sourceKey', 'kind', 'targetId', 'targetDocumentId', 'path'],
    where: { path: { $in: paths }, kind: 'article' },
  }) as Promise<SourceRow[]>;

/** The user with that e-mail (compared in lower case, as Users & Permissions stores it), or none. */
export const userIdByEmail = async (strapi: Core.Strapi, email: string): Promise<number | null> => {
  if (!email) return null;
  const row = (await strapi.db.query(USER).findOne({ select: ['id'], where: { email: email.toLowerCase() } })) as { id: number } | null;
  return row?.id ?? null;
};

/** Whether a row of that content type already has `slug` (any locale, draft or published). */
export const slugTaken = async (strapi: Core.Strapi, type: string, slug: string) =>
  (await strapi.db.query(uid(type)).count({ where: { slug } })) > 0;

/** A row of that content type with `slug`, for reuse (categories and tags by slug). */
export const rowBySlug = (strapi: Core.Strapi, type: string, slug: string) =>
  strapi.db.query(uid(type)).findOne({ select: ['id', 'documentId'], where: { slug } }) as Promise<{ id: number; documentId: string } | null>;

export const redirectExists = async (strapi: Core.Strapi, from: string) =>
  (await strapi.db.query(uid('redirect')).count({ where: { from } })) > 0;

/** The date a WordPress post was published, on its published row (what answers, feeds and the sitemap show). */
export const setPublishedAt = (strapi: Core.Strapi, type: string, documentId: string, publishedAt: Date) =>
  strapi.db.query(uid(type)).updateMany({ where: { documentId, publishedAt: { $notNull: true } }, data: { publishedAt } });

export const setCreatedAt = (strapi: Core.Strapi, type: string, id: number, createdAt: Date) =>
  strapi.db.query(uid(type)).update({ where: { id }, data: { createdAt } });

/** A comment kept for its replies: no text, no author, `deleted` (as a tombstone an author leaves). */
export const makeTombstone = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(uid('comment')).update({ where: { id }, data: { content: '', contentHtml: '', deleted: true, author: null, authorName: null, ip: null } });

/** Where an editor's or an import's redirect from `from` goes, or null. */
export const redirectTarget = async (strapi: Core.Strapi, from: string) => {
  const row = (await strapi.db.query(uid('redirect')).findOne({ select: ['to'], where: { from } })) as { to: string | null } | null;
  return row?.to ?? null;
};

/** The article with that slug (its published version first), as a comment's `article` names it. */
export const articleBySlug = (strapi: Core.Strapi, slug: string) =>
  strapi.db.query(uid('article')).findOne({
    select: ['id', 'documentId'],
    where: { slug },
    orderBy: [{ publishedAt: 'asc' }],
  }) as Promise<{ id: number; documentId: string } | null>;
