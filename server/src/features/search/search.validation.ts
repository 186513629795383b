/** Query checks of `GET /api/bag/search` (docs/search.md#the-request). Every refusal is the host's ValidationError (400) naming the field. */
import { invalidField as invalid } from '../../platform/errors';
import { isRecord } from '../../platform/is-record';

export const MAX_Q_LENGTH = 200;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface SearchQuery {
  q: string;
  locale?: string;
  category?: string;
  tag?: string;
  page: number;
  pageSize: number;
}

/** One string; a one-element list counts as that element. */
const single = (value: unknown, path: string): string | undefined => {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.length === 1) return single(value[0], path);
  if (typeof value !== 'string') return invalid(path, 'must be given once, as a string');
  return value;
};

const positive = (value: unknown, path: string, fallback: number, max?: number): number => {
  const raw = single(value, path);
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) return invalid(path, 'must be a positive integer');
  const number = Number(raw);
  if (max !== undefined && number > max) return invalid(path, `must be at most ${max}`);
  return number;
};

export const parseSearchQuery = (query: unknown): SearchQuery => {
  const params = isRecord(query) ? query : {};
  const q = single(params.q, 'q');
  if (q === undefined || q.trim() === '') return invalid('q', 'is required');
  if ([...q].length > MAX_Q_LENGTH) return invalid('q', `must be at most ${MAX_Q_LENGTH} characters`);
  const pagination = params.pagination;
  if (pagination !== undefined && !isRecord(pagination)) return invalid('pagination', 'must be pagination[page] and pagination[pageSize]');
  const paging = isRecord(pagination) ? pagination : {};
  return {
    q,
    locale: single(params.locale, 'locale'),
    category: single(params.category, 'category'),
    tag: single(params.tag, 'tag'),
    // At most the largest safe integer, as the lists: the offset, (page - 1) × pageSize, then stays within the
    // databases' 64-bit OFFSET (beyond it, a 500).
    page: positive(paging.page, 'pagination.page', 1, Number.MAX_SAFE_INTEGER),
    pageSize: positive(paging.pageSize, 'pagination.pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
};
