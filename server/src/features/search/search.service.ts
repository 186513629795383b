/**
 * Full-text search over published articles (docs/search.md): `search` answers one request; `ensureIndex` creates the
 * index and its triggers at start-up and fills in what is missing (see the `*.data.ts` files beside it for the storage).
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import {
  analyzeIndex,
  ensureSearchSchema,
  indexRange,
  missingRows,
  removeOrphans,
  searchIndex,
  taxonomyIds,
  type SearchRow,
} from './search.data';
import { getService } from '../../platform/get-service';
import { hasMark, markedHtml, plainMarkdown, tokensOf, unmarked } from './text';

/** Over this many articles to index, start-up builds the index in the background. */
export const BACKGROUND_THRESHOLD = 5_000;
/** Article ids per build statement. */
const BATCH = 2_000;
/** Characters of an excerpt when nothing in the summary or content matched (a title-only match). */
const LEAD = 200;

export interface SearchInput {
  q: string;
  locale?: unknown;
  category?: string;
  tag?: string;
  page: number;
  pageSize: number;
}

export interface SearchHit {
  documentId: string;
  slug: string;
  title: string;
  summary: string | null;
  publishedAt: string | null;
  highlight: { title: string; excerpt: string };
}

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'number' ? value : String(value));
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
};

/** The excerpt: the summary's marked snippet, else the content's, else the start of the summary (or content). */
const excerptOf = (row: SearchRow) => {
  const pick = [row.highlightSummary, row.highlightContent].find(hasMark);
  if (pick) return markedHtml(plainMarkdown(pick));
  const lead = plainMarkdown(unmarked(row.highlightSummary || row.summary || row.highlightContent));
  return markedHtml(lead.length > LEAD ? `${lead.slice(0, LEAD)}…` : lead);
};

const hit = (row: SearchRow): SearchHit => ({
  documentId: row.documentId,
  slug: row.slug,
  title: row.title,
  summary: row.summary,
  publishedAt: iso(row.publishedAt),
  highlight: { title: markedHtml(row.highlightTitle), excerpt: excerptOf(row) },
});

const search = ({ strapi }: { strapi: Core.Strapi }) => {
  let building: Promise<void> | null = null;

  /** Indexes every published row the index lacks, batch by batch; `log` reports progress. */
  const build = async (low: number, high: number, missing: number, log: boolean) => {
    const started = Date.now();
    let next = 0;
    for (let from = low - 1; from < high; from += BATCH) {
      await indexRange(strapi, from, Math.min(from + BATCH, high));
      const done = Math.min(high, from + BATCH) - low + 1;
      const percent = Math.floor((done / (high - low + 1)) * 100);
      if (log && percent >= next) {
        strapi.log.info(`[cms-plugin-bag] search index: ${percent}% (article ids up to ${Math.min(from + BATCH, high)} of ${high})`);
        next = percent + 10;
      }
    }
    await analyzeIndex(strapi);
    if (log || missing) strapi.log.info(`[cms-plugin-bag] search index: ${missing} articles indexed in ${Date.now() - started} ms`);
  };

  return {
    /**
     * Creates the index and its triggers when missing, drops entries of rows gone or unpublished, and indexes the
     * published rows it lacks: at once when few, in the background (progress in the log) over BACKGROUND_THRESHOLD.
     * Resolves when the index is ready to follow writes; `background` is the build still running, if any.
     */
    async ensureIndex(): Promise<{ background: Promise<void> | null }> {
      await ensureSearchSchema(strapi);
      await removeOrphans(strapi);
      const { missing, low, high } = await missingRows(strapi);
      if (missing === 0) return { background: null };
      if (missing <= BACKGROUND_THRESHOLD) {
        await build(low, high, missing, false);
        return { background: null };
      }
      strapi.log.info(`[cms-plugin-bag] search index: building for ${missing} articles in the background`);
      building = build(low, high, missing, true)
        .catch((error: unknown) => {
          strapi.log.error(`[cms-plugin-bag] search index build failed: ${(error as Error).message}`);
        })
        .finally(() => {
          building = null;
        });
      return { background: building };
    },

    /**
     * The background build under way, if any, for tests to await. `destroy` does not wait for it: a build cut short by
     * shutdown logs its error, and the next start indexes what it left out.
     */
    building: () => building,

    /** One page of published articles of the locale matching `q`, best first. */
    async search(input: SearchInput) {
      const { locale } = await getService(strapi, 'locales').resolve(input.locale);
      const taxonomy = async (kind: 'category' | 'tag', slug: string | undefined) => {
        if (slug === undefined) return undefined;
        const ids = await taxonomyIds(strapi, kind, slug, locale);
        if (!ids.length) throw new errors.NotFoundError(kind === 'category' ? 'Category not found' : 'Tag not found');
        return ids;
      };
      const categoryIds = await taxonomy('category', input.category);
      const tagIds = await taxonomy('tag', input.tag);
      const tokens = tokensOf(input.q);
      const { page, pageSize } = input;
      const { total, rows } = tokens.length
        ? await searchIndex(strapi, { tokens, locale, categoryIds, tagIds, limit: pageSize, offset: (page - 1) * pageSize })
        : { total: 0, rows: [] };
      return {
        data: rows.map(hit),
        meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } },
      };
    },
  };
};

export type SearchService = ReturnType<typeof search>;
export default search;
