/**
 * `views` of articles and pages is written by reads only. The Content Manager saves the whole form, with `views` as
 * it was when the editor opened it, and publishing copies the draft over the published row, so an editor's save
 * would otherwise undo every read counted while the form was open.
 */
import type { Modules } from '@strapi/strapi';
import { uid } from '../domain/plugin-id';

const COUNTED = new Set<string>([uid('article'), uid('page')]);

export const keepViewCounts: Modules.Documents.Middleware.Middleware = async (context, next) => {
  const params = context.params as { data?: Record<string, unknown> };
  if (context.action === 'update' && COUNTED.has(context.uid) && params.data && 'views' in params.data) {
    const { views: _ignored, ...data } = params.data;
    context.params = { ...params, data } as typeof context.params;
  }
  return next();
};
