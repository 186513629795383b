/**
 * The article a Disqus thread's path names (docs/import.md#disqus): an imported article's front-end path, an old
 * WordPress address an import (or an editor) redirected to one, or any article's path as `site.paths.article` makes
 * it in the default locale.
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../platform/get-service';
import type { Made } from './import-run';
import * as data from './import.data';

const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The slug `path` holds under the article path template, or null (a template with `{locale}` is not matched). */
const slugIn = (template: string, path: string): string | null => {
  const plain = template.replace(/\{localePrefix\}/g, '');
  const at = plain.indexOf('{slug}');
  if (at === -1 || plain.includes('{locale}')) return null;
  const [before, after] = [plain.slice(0, at), trim(plain.slice(at + '{slug}'.length))];
  if (!path.startsWith(before) || !path.endsWith(after) || path.length <= before.length + after.length) return null;
  const slug = path.slice(before.length, path.length - after.length);
  try {
    return slug.includes('/') ? null : decodeURIComponent(slug);
  } catch {
    return null;
  }
};

export const articleByPath = (strapi: Core.Strapi) => async (path: string): Promise<Made | null> => {
  const candidates = [path];
  const to = await data.redirectTarget(strapi, path);
  if (to && to.startsWith('/')) candidates.push(trim(to.split('?')[0]));
  const [imported] = await data.sourcesByPath(strapi, candidates);
  if (imported?.targetDocumentId) return { id: Number(imported.targetId), documentId: imported.targetDocumentId };
  const template = getService(strapi, 'settings').file().site.paths.article;
  for (const candidate of candidates) {
    const slug = slugIn(template, candidate);
    const row = slug ? await data.articleBySlug(strapi, slug) : null;
    if (row) return row;
  }
  return null;
};
