/**
 * Query checks for the paged comment endpoints (`/bag/articles/:id/comments?…`, `/bag/comments/:id/replies`,
 * `/bag/comments/counts`) and the opaque cursor they hand out. Every refusal is the host's ValidationError (400).
 */
import crypto from 'crypto';
import { errors } from '@strapi/utils';
import { isRecord } from '../utils/is-record';
import { parseIdentifier, type Identifier } from './comment';

export const THREAD_SORTS = ['createdAt:desc', 'createdAt:asc', 'top'] as const;
export type ThreadSort = (typeof THREAD_SORTS)[number];

/** Where a page ends: the last row's sort key (likes only for `top`; createdAt in epoch ms) and id. */
export interface CursorKey {
  sort: ThreadSort;
  likes?: number;
  createdAt: number;
  id: number;
}

export interface PageQuery {
  sort: ThreadSort;
  pageSize: number;
  after?: CursorKey;
  /** `pagination[withCount]=false` (as in Strapi's REST API) leaves `meta.total` out and skips its count. */
  withCount: boolean;
}

/** Articles one counts request may name (after removing duplicates). */
export const MAX_COUNT_ARTICLES = 100;

const invalid = (path: string, message: string): never => {
  throw new errors.ValidationError(`${path} ${message}`, { errors: [{ path: [path], message, name: 'ValidationError' }] });
};

/** True when the query asks for a page (any paging parameter) rather than the whole tree. */
export const wantsPage = (query: unknown): boolean =>
  isRecord(query) && (query.pagination !== undefined || query.sort !== undefined || query.after !== undefined);

const SORT_CODES: Record<ThreadSort, string> = { 'createdAt:desc': 'd', 'createdAt:asc': 'a', top: 't' };
const SORT_OF_CODE = new Map(Object.entries(SORT_CODES).map(([sort, code]) => [code, sort as ThreadSort]));

/**
 * The cursor is `base64url(JSON key).base64url(HMAC)`: opaque to clients, and a changed or made-up cursor fails
 * the MAC check (400) instead of silently jumping somewhere in the thread. The MAC key comes from the app keys, so
 * every instance on one database accepts the others' cursors.
 */
export const cursorCodec = (appKeys: unknown) => {
  const secret = crypto
    .createHash('sha256')
    .update(`cms-plugin-bag/thread-cursor/${Array.isArray(appKeys) ? appKeys.join(',') : String(appKeys ?? '')}`)
    .digest();
  const mac = (payload: string) => crypto.createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 22);

  return {
    encode(key: CursorKey): string {
      const values = key.sort === 'top' ? [key.likes ?? 0, key.createdAt, key.id] : [key.createdAt, key.id];
      const payload = Buffer.from(JSON.stringify([SORT_CODES[key.sort], ...values])).toString('base64url');
      return `${payload}.${mac(payload)}`;
    },

    /** The key inside `value`, for a page sorted by `sort`; 400 when it is malformed, forged or from another sort. */
    decode(value: unknown, sort: ThreadSort): CursorKey {
      if (typeof value !== 'string' || value.length > 200) return invalid('after', 'must be a cursor from meta.pagination.next');
      const [payload, signature, extra] = value.split('.');
      const expected = payload ? mac(payload) : '';
      const matches =
        extra === undefined &&
        typeof signature === 'string' &&
        signature.length === expected.length &&
        crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
      if (!matches) return invalid('after', 'is not a valid cursor');
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return invalid('after', 'is not a valid cursor');
      }
      if (!Array.isArray(parsed) || !parsed.slice(1).every((n) => Number.isSafeInteger(n))) return invalid('after', 'is not a valid cursor');
      const cursorSort = SORT_OF_CODE.get(parsed[0]);
      if (cursorSort !== sort) return invalid('after', `was made for another sort; start again without it for sort=${sort}`);
      const numbers = parsed.slice(1) as number[];
      if (sort === 'top') {
        if (numbers.length !== 3) return invalid('after', 'is not a valid cursor');
        return { sort, likes: numbers[0], createdAt: numbers[1], id: numbers[2] };
      }
      if (numbers.length !== 2) return invalid('after', 'is not a valid cursor');
      return { sort, createdAt: numbers[0], id: numbers[1] };
    },
  };
};

export type CursorCodec = ReturnType<typeof cursorCodec>;

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
export const parsePageQuery = (
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
