/**
 * `views` of articles and pages is written by reads only, one counter per document across its locales. The Content
 * Manager saves the whole form, with `views` as it was when the editor opened it, and publishing copies the draft
 * over the published row, so an editor's save (in any locale) would otherwise undo every read counted while the form
 * was open. A locale version created later starts at the document's count.
 */
import type { Core, Modules, UID } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { alignLocaleViews, hasLocaleVersion } from './views.data';

const COUNTED = new Set<string>([uid('article'), uid('page')]);

export const keepViewCounts =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    if (context.action !== 'update' || !COUNTED.has(context.uid)) return next();
    const params = context.params as { data?: Record<string, unknown>; documentId?: string; locale?: unknown };
    if (params.data && 'views' in params.data) {
      const { views: _ignored, ...data } = params.data;
      context.params = { ...params, data } as typeof context.params;
    }
    const { documentId, locale } = params;
    // Updating a locale the document does not have yet creates that version (the host's i18n behaviour).
    const creates =
      typeof documentId === 'string' &&
      typeof locale === 'string' &&
      !(await hasLocaleVersion(strapi, context.uid as UID.ContentType, documentId, locale));
    const result = await next();
    if (creates) await alignLocaleViews(strapi, context.uid as UID.ContentType, documentId, locale);
    return result;
  };
