/** Shapes of `GET /api/bag/search` (docs/search.md). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { ONCE, once, pagination, queryInteger } from '../../platform/shapes/common';
import { codePoints } from '../../platform/shapes/fields';
import { declareRequest } from '../../platform/request-check';

export const MAX_Q_LENGTH = 200;
export const SEARCH_TYPES = ['articles', 'pages', 'all'] as const;
export const FACETS = ['category', 'tag', 'locale'] as const;
export type Facet = (typeof FACETS)[number];
/** `facets` as the service takes it: each named once. */
export const facetsOf = (value: string | undefined) => (value === undefined ? undefined : ([...new Set(value.split(',').map((name) => name.trim()))] as Facet[]));
export const SUGGEST_MIN = 2;
export const SUGGEST_MAX = 100;
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
  type: z
    .preprocess(once, z.enum(SEARCH_TYPES, { error: `must be one of ${SEARCH_TYPES.join(', ')}` }).optional())
    .describe('what to search: articles (default), pages (title, SEO description, content) or all (each hit then carries `type`)'),
  typos: z
    .preprocess(once, z.enum(['true', 'false'], { error: 'must be true or false' }).optional())
    .describe('typo tolerance (on unless false): 5–8 characters one edit, 9 or more two'),
  facets: z
    .preprocess(once, z.string({ error: ONCE }).optional())
    .refine((value) => value === undefined || value.split(',').every((name) => (FACETS as readonly string[]).includes(name.trim())), {
      message: `must be a comma-separated list of ${FACETS.join(', ')}`,
    })
    .describe('meta.facets: counts over every hit of category, tag and/or locale (comma-separated)'),
  pagination: z
    .object(
      { page: positive(Number.MAX_SAFE_INTEGER, 1), pageSize: positive(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE) },
      { error: 'must be pagination[page] and pagination[pageSize]' }
    )
    .default({ page: 1, pageSize: DEFAULT_PAGE_SIZE }),
}));
export const searchRequest = declareRequest({ query: searchQuery }, { first: true });

export const searchHit = lazyShape(() => z.object({
  type: z.enum(['article', 'page']).optional().describe('with type=all: what the hit is'),
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

const facetCount = () => z.object({ slug: z.string(), title: z.string(), count: z.number().int() });
export const searchResult = lazyShape(() =>
  z.object({
    data: z.array(searchHit),
    meta: z.object({
      pagination,
      facets: z
        .object({
          category: z.array(facetCount()).optional(),
          tag: z.array(facetCount()).optional(),
          locale: z.array(z.object({ code: z.string(), count: z.number().int() })).optional(),
        })
        .optional(),
      suggestion: z.string().optional().describe('when nothing was found and this corrected query finds something'),
    }),
  }),
);

/** `GET /api/bag/search/suggest` (docs/search.md#suggest). */
export const suggestQuery = lazyShape(() => ({
  q: z
    .preprocess(once, z.string({ error: (issue) => (issue.input === undefined ? REQUIRED : ONCE) }))
    .refine((q) => q.trim() !== '', { message: REQUIRED, abort: true })
    .refine((q) => codePoints(q.trim()) >= SUGGEST_MIN, { message: `must be at least ${SUGGEST_MIN} characters`, abort: true })
    .refine((q) => codePoints(q) <= SUGGEST_MAX, `must be at most ${SUGGEST_MAX} characters`)
    .meta({ minLength: SUGGEST_MIN, maxLength: SUGGEST_MAX })
    .describe('the words typed so far (2–100 characters)'),
  locale: z.preprocess(once, given().optional()).describe('a locale code of the host; the default locale when absent'),
}));
export const suggestRequest = declareRequest({ query: suggestQuery }, { first: true });
export const suggestResult = lazyShape(() =>
  z.object({ data: z.array(z.object({ type: z.enum(['article', 'page']), slug: z.string(), title: z.string() })) }),
);
