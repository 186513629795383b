/**
 * One run's bookkeeping and writes (docs/import.md): counts by kind, the skipped items and why, the source keys that
 * make a second run create nothing, and every Document Service write, none of them in a dry run. A write made for
 * the import sends no comment notification or webhook event (the comments were written long ago).
 */
import type { Core } from '@strapi/strapi';
import { frontPath } from '../discovery';
import { quietCommentWrites } from '../comments';
import { getService } from '../../platform/get-service';
import { uid } from '../../platform/plugin-id';
import * as data from './import.data';

export const COUNT_KINDS = ['articles', 'pages', 'categories', 'tags', 'comments', 'menus', 'menuItems', 'redirects'] as const;
export type CountKind = (typeof COUNT_KINDS)[number];
export type Counts = Record<CountKind, number>;
export interface Skipped {
  kind: string;
  sourceId: string;
  reason: string;
}

export const emptyCounts = (): Counts => Object.fromEntries(COUNT_KINDS.map((kind) => [kind, 0])) as Counts;

/** A made document: its row id and documentId (in a dry run, stand-ins). */
export interface Made {
  id: number;
  documentId: string;
  /** As the create stored it (a comment's is the export's date when given in its values). */
  createdAt?: Date | string | null;
}

/** A slug as the `uid` fields take it: WordPress's percent-encoded, accented or spaced names made plain. */
export const slugify = (value: string): string => {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // kept as written
  }
  return decoded
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.~]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
};

export const createImportRun = (strapi: Core.Strapi, dryRun: boolean) => {
  const counts = emptyCounts();
  const skipped: Skipped[] = [];
  let dryIds = 0;
  const users = new Map<string, number>();
  const localizedTypes = new Map<string, boolean>();
  const localized = (type: string) => {
    if (!localizedTypes.has(type)) {
      const i18n = strapi.plugin('i18n');
      localizedTypes.set(type, Boolean(i18n?.service('content-types').isLocalizedContentType(strapi.contentType(uid(type) as never))));
    }
    return localizedTypes.get(type) as boolean;
  };
  const paths = () => getService(strapi, 'settings').file().site.paths;

  const run = {
    dryRun,
    counts,
    skipped,
    skip(kind: string, sourceId: string, reason: string) {
      skipped.push({ kind, sourceId, reason });
    },
    /** The source key's row when an earlier run imported it. */
    seen: (key: string) => data.sourceByKey(strapi, key),
    async remember(key: string, kind: string, made: Made, path: string | null = null) {
      if (!dryRun) await data.insertSource(strapi, { sourceKey: key, kind, targetId: made.id, targetDocumentId: made.documentId, path });
    },
    path: (kind: 'article' | 'page' | 'category' | 'tag', slug: string) => frontPath(paths(), kind, slug, defaultLocale(), defaultLocale()),
    /** The user with that e-mail; the users found are remembered for the run (a few authors write most items). */
    async userByEmail(email: string) {
      const known = users.get(email);
      if (known !== undefined) return known;
      const id = await data.userIdByEmail(strapi, email);
      if (id !== null) users.set(email, id);
      return id;
    },
    /** `slug`, or `slug-2`, `slug-3`… when another document of the type has it. */
    async freeSlug(type: string, wanted: string) {
      const base = wanted || 'untitled';
      let slug = base;
      for (let n = 2; await data.slugTaken(strapi, type, slug); n += 1) slug = `${base}-${n}`;
      return slug;
    },
    bySlug: (type: string, slug: string) => data.rowBySlug(strapi, type, slug),
    redirectExists: (from: string) => data.redirectExists(strapi, from),
    sourcesByPath: (candidates: string[]) => data.sourcesByPath(strapi, candidates),
    /** Creates a document (published when asked), counted under `kind`. */
    async create(type: string, kind: CountKind, values: Record<string, unknown>, published = false): Promise<Made> {
      counts[kind] += 1;
      if (dryRun) {
        dryIds += 1;
        return { id: -dryIds, documentId: `dry-run-${dryIds}` };
      }
      // The default locale named, so the Document Service does not read it from the store for each write.
      const locale = localized(type) ? { locale: defaultLocale() } : {};
      const made = (await quietCommentWrites(() =>
        strapi.documents(uid(type) as never).create({ data: values, ...locale, ...(published ? { status: 'published' } : {}) } as never),
      )) as unknown as Made;
      return { id: made.id, documentId: made.documentId, createdAt: made.createdAt ?? null };
    },
    async setPublishedAt(type: string, made: Made, date: Date | null) {
      if (!dryRun && date) await data.setPublishedAt(strapi, type, made.documentId, date);
    },
    /** Sets `createdAt` unless the create already stored `date` (given in its values). */
    async setCreatedAt(type: string, made: Made, date: Date | null) {
      if (dryRun || !date || (made.createdAt && new Date(made.createdAt).getTime() === date.getTime())) return;
      await data.setCreatedAt(strapi, type, made.id, date);
    },
    async tombstone(made: Made) {
      if (!dryRun) await data.makeTombstone(strapi, made.id);
    },
  };

  let locale = 'en';
  const defaultLocale = () => locale;
  return {
    ...run,
    async init() {
      const i18n = strapi.plugin('i18n');
      locale = i18n ? await i18n.service('locales').getDefaultLocale() : 'en';
      return this;
    },
  };
};

export type ImportRun = Awaited<ReturnType<ReturnType<typeof createImportRun>['init']>>;

/** A date of the export, or null (`0000-00-00 00:00:00` and the unreadable). WordPress's GMT dates carry no zone. */
export const exportDate = (value: string): Date | null => {
  if (!value || value.startsWith('0000')) return null;
  const date = new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
};
