/** Shapes of `GET /api/bag/search` (docs/search.md). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { ONCE, once, pagination, queryInteger } from '../../platform/shapes/common';
import { codePoints } from '../../platform/shapes/fields';
import { declareRequest } from '../../platform/request-check';

export const MAX_Q_LENGTH = 200;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

/** One string, given once (a one-element list counts as that element). */
const given = () => z.string({ error: ONCE });
const REQUIRED = 'is required';
/** A positive whole number, at most `max` (the page: the largest safe integer, so the offset stays within the databases' 64-bit OFFSET). */
const positive = (max: number, fallback: number) =>
  z.preprocess(once, queryInteger({ max, fallback, message: 'must be a positive integer', tooBig: `must be at most ${max}`, notString: ONCE }));

/** docs/search.md#the-request: one issue at a time, the first. */
export const searchQuery = lazyShape(() => ({
  q: z
    .preprocess(once, z.string({ error: (issue) => (issue.input === undefined ? REQUIRED : ONCE) }))
    .refine((q) => q.trim() !== '', { message: REQUIRED, abort: true })
    .refine((q) => codePoints(q) <= MAX_Q_LENGTH, `must be at most ${MAX_Q_LENGTH} characters`)
    .meta({ minLength: 1, maxLength: MAX_Q_LENGTH })
    .describe('the text to search for (1–200 characters); every character is text, never query syntax'),
  locale: z.preprocess(once, given().optional()).describe("a locale code of the host; the default locale when absent"),
  category: z.preprocess(once, given().optional()).describe('slug of a category: only its articles'),
  tag: z.preprocess(once, given().optional()).describe('slug of a tag: only articles with it'),
  pagination: z
    .object(
      { page: positive(Number.MAX_SAFE_INTEGER, 1), pageSize: positive(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE) },
      { error: 'must be pagination[page] and pagination[pageSize]' }
    )
    .default({ page: 1, pageSize: DEFAULT_PAGE_SIZE }),
}));
export const searchRequest = declareRequest({ query: searchQuery }, { first: true });

export const searchHit = lazyShape(() => z.object({
  documentId: z.string(),
  slug: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  publishedAt: z.string().nullable(),
  highlight: z.object({
    title: z.string().describe('HTML-escaped title; matches in <mark>…</mark>'),
    excerpt: z.string().describe('HTML-escaped excerpt of the summary or content; matches in <mark>…</mark>'),
  }),
}));

export const searchResult = lazyShape(() => z.object({ data: z.array(searchHit), meta: z.object({ pagination }) }));
