/**
 * Old slugs of articles and pages (docs/redirects.md): around every write of one document, its published versions
 * are read before and after; a locale whose published slug changed (or went, by an unpublish) keeps the old one as a
 * redirect to the document. Publishing goes through `publish`, or `create` / `update` with `status: 'published'`
 * (which publish without passing through this middleware again), so every write action is watched, not `publish` only.
 */
import type { Core, Modules } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import type { RedirectKind } from './redirects.service';

const KINDS = new Map<string, RedirectKind>([
  [uid('article'), 'article'],
  [uid('page'), 'page'],
]);
const WRITES = new Set(['update', 'publish', 'unpublish']);

export const slugHistory =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    const kind = KINDS.get(context.uid);
    const { documentId } = context.params as { documentId?: unknown };
    if (!kind || !WRITES.has(context.action) || typeof documentId !== 'string') return next();
    const service = getService(strapi, 'redirects');
    const before = await service.publishedSlugs(kind, documentId);
    const result = await next();
    if (before.length > 0) await service.record(kind, documentId, before, await service.publishedSlugs(kind, documentId));
    return result;
  };
