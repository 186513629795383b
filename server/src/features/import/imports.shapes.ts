/** Shapes of the import's admin routes (`/cms-plugin-bag/imports`, docs/import.md#admin). */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { jsonBody } from '../../platform/route-types';
import { declareRequest } from '../../platform/request-check';

/** The multipart fields beside `file` (a form's fields are strings). */
export const importCreateBody = lazyShape(() => z.object({
  source: z.enum(['wordpress', 'disqus']).describe('The export\'s format.'),
  dryRun: z.enum(['true', 'false']).optional().describe('`true`: counts only, nothing written.'),
}));
export const importCreateRequest = declareRequest(jsonBody(importCreateBody));

export const importParams = lazyShape(() => ({ id: z.string().regex(/^[1-9]\d{0,9}$/, 'must be an import id').describe('The import\'s id.') }));
export const importByIdRequest = declareRequest({ params: importParams });

const counts = lazyShape(() => z.object({
  articles: z.number().int(), pages: z.number().int(), categories: z.number().int(), tags: z.number().int(),
  comments: z.number().int(), menus: z.number().int(), menuItems: z.number().int(), redirects: z.number().int(),
}));

export const importReport = lazyShape(() => z.object({
  id: z.number().int(),
  source: z.enum(['wordpress', 'disqus']),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  dryRun: z.boolean(),
  processed: z.number().int(),
  total: z.number().int(),
  counts,
  skipped: z.array(z.object({ kind: z.string(), sourceId: z.string(), reason: z.string() })),
  error: z.string().nullable(),
}));

export const importStartedResponse = lazyShape(() => z.object({ data: z.object({ id: z.number().int(), status: z.enum(['queued', 'running', 'done', 'failed']) }) }));
export const importReportResponse = lazyShape(() => z.object({ data: importReport }));
