/**
 * Query checks for the paged comment endpoints (`/bag/articles/:id/comments?…`, `/bag/comments/:id/replies`,
 * `/bag/comments/counts`). Every refusal is the host's ValidationError (400); the cursor's format is in
 * features/comments/thread.ts.
 */
import type { PluginConfig } from '../../platform/config/schema';
import type { Identifier } from './comment-vocabulary';
import { invalidField as invalid } from '../../platform/errors';
import { THREAD_SORTS, type CursorCodec, type PageQuery, type ThreadSort } from './thread';
import { isRecord } from '../../platform/is-record';
import { parseIdentifier } from './comments.validation';

/** Articles one counts request may name (after removing duplicates). */
export const MAX_COUNT_ARTICLES = 100;

/** True when the query asks for a page (any paging parameter) rather than the whole tree. */
export const wantsPage = (query: unknown): boolean =>
  isRecord(query) && (query.pagination !== undefined || query.sort !== undefined || query.after !== undefined);

/** One string; a one-element list (`sort[0]=top`, as Strapi's clients write `sort`) counts as that element. */
const single = (value: unknown, path: string): string | undefined => {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.length === 1) return single(value[0], path);
  if (typeof value !== 'string') return invalid(path, 'must be given once, as a string');
  return value;
};

const withCountOf = (pagination: unknown): boolean => {
  const raw = isRecord(pagination) ? single(pagination.withCount, 'pagination.withCount') : undefined;
  if (raw === undefined || raw === '' || raw === 'true') return true;
  if (raw === 'false') return false;
  return invalid('pagination.withCount', 'must be true or false');
};

const pageSizeOf = (pagination: unknown, fallback: number, max: number): number => {
  if (pagination === undefined) return fallback;
  if (!isRecord(pagination)) return invalid('pagination', 'must be pagination[pageSize]=<n>');
  for (const key of Object.keys(pagination)) {
    if (key !== 'pageSize' && key !== 'withCount') {
      invalid(`pagination.${key}`, 'is not supported here: page with pagination[pageSize] and after');
    }
  }
  const raw = single(pagination.pageSize, 'pagination.pageSize');
  if (raw === undefined || raw === '') return fallback;
  const size = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(size) || size < 1 || size > max) return invalid('pagination.pageSize', `must be an integer from 1 to ${max}`);
  return size;
};

/** `sort`, `pagination[pageSize]` and `after` of a page of roots (default sort newest first). */
const parsePageQuery = (
  query: unknown,
  limits: { pageSize: number; maxPageSize: number },
  codec: CursorCodec,
  { sorts = THREAD_SORTS as readonly ThreadSort[], defaultSort = 'createdAt:desc' as ThreadSort } = {}
): PageQuery => {
  const input = isRecord(query) ? query : {};
  const rawSort = single(input.sort, 'sort');
  const sort = rawSort === undefined || rawSort === '' ? defaultSort : (rawSort as ThreadSort);
  if (!sorts.includes(sort)) invalid('sort', `must be one of ${sorts.join(', ')}`);
  const pageSize = pageSizeOf(input.pagination, limits.pageSize, limits.maxPageSize);
  const rawAfter = single(input.after, 'after');
  const after = rawAfter === undefined || rawAfter === '' ? undefined : codec.decode(rawAfter, sort);
  return { sort, pageSize, after, withCount: withCountOf(input.pagination) };
};

/** The paging parameters of a page of an article's roots (`sort`, `pagination[pageSize]`, `after`). */
export const parseRootsQuery = (query: unknown, config: PluginConfig, codec: CursorCodec): PageQuery =>
  parsePageQuery(query, config.comments.thread, codec);

/** The paging parameters of a page of one comment's replies: oldest first only. */
export const parseRepliesQuery = (query: unknown, config: PluginConfig, codec: CursorCodec): PageQuery =>
  parsePageQuery(query, config.comments.thread, codec, { sorts: ['createdAt:asc'], defaultSort: 'createdAt:asc' });

/** `?articles=a,b,c`: documentIds or numeric ids, duplicates removed, 1..MAX_COUNT_ARTICLES of them. */
export const parseCountArticles = (query: unknown): { key: string; id: Identifier }[] => {
  const input = isRecord(query) ? query : {};
  const raw = input.articles;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((value) =>
    typeof value === 'string' ? value.split(',') : invalid('articles', 'must be a comma-separated list of article ids')
  );
  const given = [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
  if (given.length === 0) invalid('articles', 'is required: ?articles=<documentId or id>,…');
  if (given.length > MAX_COUNT_ARTICLES) invalid('articles', `must name at most ${MAX_COUNT_ARTICLES} articles`);
  return given.map((key) => ({ key, id: parseIdentifier(key) ?? invalid('articles', `contains an invalid id: ${key.slice(0, 64)}`) }));
};
