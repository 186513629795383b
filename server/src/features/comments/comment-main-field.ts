/**
 * The Content Manager shows a comment by its text, never by its IP (docs/comments.md#choices-request-data-the-content-manager-deletion).
 * Strapi 5 takes a type's first `string` attribute as the `mainField` of its list, of the homepage's "Last edited
 * entries" and of every relation field that points to it; a comment's is `ip` (`content` is `text`). The schemas'
 * `config` name `content` for a new database; this rewrites what an earlier start stored. The content-manager plugin
 * bootstraps before this one (an internal plugin), so every configuration exists by now.
 */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');
const NOT_SHOWN = new Set(['ip', 'userAgent']);

interface Configuration {
  settings?: { mainField?: string; defaultSortBy?: string; defaultSortOrder?: string };
  metadatas?: Record<string, { edit?: { mainField?: string } }>;
}

interface ContentTypesService {
  findConfiguration(contentType: { uid: string }): Promise<Configuration>;
  updateConfiguration(contentType: { uid: string }, configuration: Configuration): Promise<unknown>;
}

/** The configuration with `content` wherever it showed a comment by its IP or User-Agent; null when nothing changes. */
const withCommentText = (schemaUid: string, attributes: Record<string, unknown>, stored: Configuration): Configuration | null => {
  let changed = false;
  const settings = { ...stored.settings };
  if (schemaUid === COMMENT) {
    if (NOT_SHOWN.has(settings.mainField ?? '')) {
      settings.mainField = 'content';
      changed = true;
    }
    if (NOT_SHOWN.has(settings.defaultSortBy ?? '')) {
      settings.defaultSortBy = 'createdAt';
      settings.defaultSortOrder = 'DESC';
      changed = true;
    }
  }
  const metadatas = { ...stored.metadatas };
  for (const [name, attribute] of Object.entries(attributes)) {
    const { type, target } = attribute as { type?: string; target?: string };
    const meta = metadatas[name];
    if (type !== 'relation' || target !== COMMENT || !meta?.edit || !NOT_SHOWN.has(meta.edit.mainField ?? '')) continue;
    metadatas[name] = { ...meta, edit: { ...meta.edit, mainField: 'content' } };
    changed = true;
  }
  return changed ? { ...stored, settings, metadatas } : null;
};

export const showCommentsByText = async (strapi: Core.Strapi): Promise<void> => {
  const contentManager = strapi.plugin('content-manager');
  if (!contentManager) return;
  const service = contentManager.service('content-types') as unknown as ContentTypesService;
  for (const [schemaUid, contentType] of Object.entries(strapi.contentTypes)) {
    const relatesToComments = Object.values(contentType.attributes).some((a) => (a as { target?: string }).target === COMMENT);
    if (schemaUid !== COMMENT && !relatesToComments) continue;
    const fixed = withCommentText(schemaUid, contentType.attributes, await service.findConfiguration({ uid: schemaUid }));
    if (fixed) await service.updateConfiguration({ uid: schemaUid }, fixed);
  }
};
