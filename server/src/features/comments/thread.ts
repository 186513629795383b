/**
 * Paged comment threads: the sorts, a page query, and the opaque cursor a page hands out (encoded by the service,
 * decoded while the query is checked; a malformed or forged cursor is a 400).
 */
import crypto from 'crypto';
import { z } from 'zod/v4';
import { invalidField as invalid } from '../../platform/errors';
import type { PluginConfig } from '../../platform/config/schema';
import { parseShape } from '../../platform/shapes/parse';
import { THREAD_SORTS, threadQueryFor, type ThreadSort } from './comments.shapes';

export { THREAD_SORTS, type ThreadSort };

/**
 * Where a page ends: the last row's sort key (likes only for `top`; createdAt in epoch ms) and id. A page of roots
 * that ends among the pinned roots (listed first, most recently pinned first) ends at `pinnedAt` (epoch ms) and id.
 */
export interface CursorKey {
  sort: ThreadSort;
  likes?: number;
  createdAt: number;
  id: number;
  pinnedAt?: number;
}

export interface PageQuery {
  sort: ThreadSort;
  pageSize: number;
  after?: CursorKey;
  /** `pagination[withCount]=false` (as in Strapi's REST API) leaves `meta.total` out and skips its count. */
  withCount: boolean;
}

/** A checked page query (`threadQuery`, `repliesQuery` of features/comments/comments.shapes.ts) with its cursor decoded (400 if forged). */
export const pageQueryOf = (
  query: { sort: ThreadSort; pagination?: { pageSize?: number; withCount?: boolean }; after?: string },
  codec: CursorCodec,
  limits: { pageSize: number }
): PageQuery => ({
  sort: query.sort,
  pageSize: query.pagination?.pageSize ?? limits.pageSize,
  after: query.after === undefined ? undefined : codec.decode(query.after, query.sort),
  withCount: query.pagination?.withCount ?? true,
});

/** The paging parameters of a page of an article's roots, from a REST-like query (GraphQL's arguments). */
export const parseRootsQuery = (query: unknown, config: PluginConfig, codec: CursorCodec): PageQuery =>
  pageQueryOf(parseShape(z.object(threadQueryFor(config.comments.thread)), query ?? {}, { first: true }), codec, config.comments.thread);

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
      if (key.pinnedAt !== undefined) {
        const payload = Buffer.from(JSON.stringify([`${SORT_CODES[key.sort]}p`, key.pinnedAt, key.id])).toString('base64url');
        return `${payload}.${mac(payload)}`;
      }
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
      const code = typeof parsed[0] === 'string' ? parsed[0] : '';
      const pinned = code.length === 2 && code.endsWith('p');
      const cursorSort = SORT_OF_CODE.get(pinned ? code[0] : code);
      if (cursorSort !== sort) return invalid('after', `was made for another sort; start again without it for sort=${sort}`);
      const numbers = parsed.slice(1) as number[];
      if (pinned) {
        if (numbers.length !== 2) return invalid('after', 'is not a valid cursor');
        return { sort, pinnedAt: numbers[0], createdAt: 0, id: numbers[1] };
      }
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
