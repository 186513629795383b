/** Shapes of `GET /api/bag/search` (docs/search.md). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { pagination } from '../../platform/shapes/common';

export const searchQuery = lazyShape(() => ({
  q: z.string().describe('the text to search for (1–200 characters); every character is text, never query syntax'),
  locale: z.string().optional().describe("a locale code of the host; the default locale when absent"),
  category: z.string().optional().describe('slug of a category: only its articles'),
  tag: z.string().optional().describe('slug of a tag: only articles with it'),
  pagination: z.object({ page: z.string().optional(), pageSize: z.string().optional() }).optional(),
}));

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
