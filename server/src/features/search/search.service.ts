/**
 * Full-text search over published articles (docs/search.md): `search` answers one request; `ensureIndex` creates the
 * index and its triggers at start-up and fills in what is missing (see the `*.data.ts` files beside it for the storage).
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import {
  analyzeIndex,
  candidatesOf,
  countIndex,
  ensureSearchSchema,
  exactOf,
  hasCandidates,
  facetCounts,
  inVocabulary,
  indexRange,
  missingRows,
  removeOrphans,
  searchIndex,
  suggestTitles,
  taxonomyIds,
  vocabularyForm,
  vocabularyRange,
  isPostgres,
  type VocabularyRows,
  type SearchQuery,
  type SearchRow,
  type Terms,
} from './search.data';
import type { SourceKind } from './common.data';
import { getService } from '../../platform/get-service';
import { keptByVersion } from '../cache';
import { hasMark, markedHtml, plainMarkdown, tokensOf, unmarked } from './text';
import { parseQuery, type ParsedQuery } from './query-text';
import { budgetOf, lengthOf } from './typos';

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
  /** `articles` (default), `pages` or `all`. */
  type?: 'articles' | 'pages' | 'all';
  /** Typo tolerance, on unless `false`. */
  typos?: boolean;
  facets?: ('category' | 'tag' | 'locale')[];
}

/** Titles the suggest route answers at most (docs/search.md#suggest). */
const SUGGESTIONS = 10;

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

const hit = (row: SearchRow, typed: boolean): SearchHit & { type?: SourceKind } => ({
  ...(typed ? { type: row.kind } : {}),
  documentId: row.documentId,
  slug: row.slug,
  title: row.title,
  summary: row.summary,
  publishedAt: iso(row.publishedAt),
  highlight: { title: markedHtml(row.highlightTitle), excerpt: excerptOf(row) },
});

const search = ({ strapi }: { strapi: Core.Strapi }) => {
  let building: Promise<void> | null = null;
  /**
   * SQLite: the vocabulary's words by first letter, kept until the content version moves (docs/search.md#typos):
   * reading a range from fts5vocab costs every row of its words. A write through Strapi (any instance) moves the
   * version; a raw SQL write does not, and its new words become typo candidates at the next one.
   */
  const ranges = keptByVersion<VocabularyRows>(strapi, 256);
  const candidates = async (kinds: SourceKind[], word: string, budget?: number) => {
    if (isPostgres(strapi)) return candidatesOf(strapi, kinds, word, budget);
    let version: number | undefined;
    return candidatesOf(strapi, kinds, word, budget, async (first) => {
      version ??= await ranges.version();
      const key = `${kinds.join(',')}:${first}`;
      const kept = ranges.get(version, key);
      if (kept) return kept;
      const rows = await vocabularyRange(strapi, kinds, first);
      ranges.set(version, key, rows);
      return rows;
    });
  };

  /** Indexes every published row the index lacks, batch by batch; `log` reports progress. */
  const build = async (low: number, high: number, missing: number, log: boolean, kind: SourceKind = 'article') => {
    const started = Date.now();
    let next = 0;
    for (let from = low - 1; from < high; from += BATCH) {
      await indexRange(strapi, from, Math.min(from + BATCH, high), kind);
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

  /**
   * The text of `q` with each word the vocabulary lacks replaced by its closest word (a word of 3–4 characters may
   * differ by one edit here), when that query finds something; else null.
   */
  const suggestionFor = async (parsed: ParsedQuery, query: SearchQuery, kinds: SourceKind[]) => {
    let text = parsed.text;
    let changed = false;
    const words = [...parsed.words].sort((x, y) => y.start - x.start);
    const corrected = new Map<number, string>();
    for (const word of words) {
      const form = vocabularyForm(strapi, word.text);
      if (lengthOf(form) < 3 || (await inVocabulary(strapi, kinds, form))) continue;
      const [best] = await candidates(kinds, form, Math.max(1, budgetOf(form)));
      if (!best) continue;
      corrected.set(word.start, best);
      text = text.slice(0, word.start) + best + text.slice(word.start + word.text.length);
      changed = true;
    }
    if (!changed) return null;
    const terms: Terms = {
      ...query.terms,
      words: parsed.words.map((word) => ({ text: corrected.get(word.start) ?? word.text, prefix: word.prefix, candidates: [] })),
    };
    const { total } = await searchIndex(strapi, { ...query, terms });
    return total ? text : null;
  };

  /**
   * One page, exact hits first (docs/search.md#typos). With typo candidates the exact words' hits are ranked alone,
   * and all hits only counted; the hits that needed an edit are ranked only when the exact ones do not fill the page.
   * Ranking every hit of a word and its neighbours together cost 4–5 times a plain search at 100,000 articles.
   */
  const pageOf = async (query: SearchQuery): Promise<{ total: number; rows: SearchRow[] }> => {
    if (!hasCandidates(query.terms)) return searchIndex(strapi, query);
    const exactTerms = exactOf(query.terms);
    const exact = await searchIndex(strapi, { ...query, terms: exactTerms });
    const total = await countIndex(strapi, query);
    if (exact.total >= query.offset + query.limit) return { total, rows: exact.rows };
    const rest = await searchIndex(strapi, {
      ...query,
      without: exactTerms,
      offset: Math.max(0, query.offset - exact.total),
      limit: query.limit - exact.rows.length,
    });
    return { total, rows: [...exact.rows, ...rest.rows.map((row) => ({ ...row, exact: false }))] };
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
      // Pages: few on any site, indexed before bootstrap returns.
      const pages = await missingRows(strapi, 'page');
      if (pages.missing) await build(pages.low, pages.high, pages.missing, false, 'page');
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

    /** One page of published articles (and/or pages) of the locale matching `q`, best first (docs/search.md). */
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
      const type = input.type ?? 'articles';
      // Pages have no category or tag: a filter by either leaves articles only.
      const kinds = (type === 'all' ? (['article', 'page'] as const) : type === 'pages' ? (['page'] as const) : (['article'] as const)).filter(
        (kind) => kind === 'article' || (!categoryIds && !tagIds),
      );
      const parsed = parseQuery(input.q);
      const terms: Terms = {
        words: await Promise.all(
          parsed.words.map(async (word) => ({
            text: word.text,
            prefix: word.prefix,
            candidates: input.typos === false ? [] : await candidates([...kinds], vocabularyForm(strapi, word.text)),
          })),
        ),
        phrases: parsed.phrases,
        excluded: parsed.excluded,
      };
      const { page, pageSize } = input;
      const base = { terms, locale, categoryIds, tagIds };
      const searchable = kinds.length > 0 && (terms.words.length > 0 || terms.phrases.length > 0);
      let total = 0;
      let rows: SearchRow[] = [];
      if (searchable && kinds.length === 1) {
        ({ total, rows } = await pageOf({ ...base, kind: kinds[0], limit: pageSize, offset: (page - 1) * pageSize }));
      } else if (searchable) {
        // Both kinds: each one's best up to the end of the page, merged (exact hits first, then score, then newest).
        const end = Math.min(page * pageSize, Number.MAX_SAFE_INTEGER);
        const parts = await Promise.all(kinds.map((kind) => pageOf({ ...base, kind, limit: end, offset: 0 })));
        total = parts.reduce((sum, part) => sum + part.total, 0);
        const time = (row: SearchRow) => new Date(String(row.publishedAt)).getTime() || 0;
        rows = parts
          .flatMap((part) => part.rows)
          .sort((x, y) => Number(y.exact) - Number(x.exact) || y.score - x.score || time(y) - time(x))
          .slice((page - 1) * pageSize, page * pageSize);
      }
      const meta: Record<string, unknown> = { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
      if (input.facets?.length) {
        const facets: Record<string, unknown> = {};
        for (const facet of input.facets) {
          if (facet === 'locale') facets.locale = total ? [{ code: locale, count: total }] : [];
          else facets[facet] = searchable && kinds.includes('article') ? await facetCounts(strapi, { ...base, kind: 'article', limit: 0, offset: 0 }, facet) : [];
        }
        meta.facets = facets;
      }
      if (!total && searchable) {
        const suggestion = await suggestionFor(parsed, { ...base, kind: kinds[0], limit: 1, offset: 0 }, [...kinds]);
        if (suggestion) meta.suggestion = suggestion;
      }
      return { data: rows.map((row) => hit(row, type === 'all')), meta };
    },

    /** Up to 10 published titles whose words start with the words of `q` (docs/search.md#suggest). */
    async suggest(input: { q: string; locale?: unknown }) {
      const { locale } = await getService(strapi, 'locales').resolve(input.locale);
      const words = tokensOf(input.q);
      if (!words.length) return { data: [] };
      const found = (
        await Promise.all((['article', 'page'] as const).map((kind) => suggestTitles(strapi, kind, words, locale, SUGGESTIONS)))
      ).flat();
      found.sort((x, y) => x.title.length - y.title.length);
      return { data: found.slice(0, SUGGESTIONS).map((row) => ({ type: row.kind, slug: row.slug, title: row.title })) };
    },
  };
};

export type SearchService = ReturnType<typeof search>;
export default search;
