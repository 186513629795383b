/**
 * The Content Manager side panel of articles and pages (docs/admin.md): views, comments by status, the thread's
 * pinned roots and closed state, the published slug and the front end's URL template for the SEO preview. The warnings are the panel's own reading of these.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { uid } from '../../domain/plugin-id';
import type { EDIT_PANEL_KINDS } from '../../domain/shapes/places';
import { editPanelFigures } from '../../repositories/content/edit-panel';
import { closing } from '../comments/closing';
import { getService } from '../get-service';

export type EditPanelKind = (typeof EDIT_PANEL_KINDS)[number];

/** `site.url` + `site.paths.<kind>` with `{locale}` filled and `{slug}` kept; null while `site.url` is unset. */
const urlTemplate = (url: string | undefined, path: string, locale: string): string | null => {
  if (!url) return null;
  const filled = path.replace(/\{locale\}/g, encodeURIComponent(locale));
  return `${url.replace(/\/+$/, '')}${filled.startsWith('/') ? '' : '/'}${filled}`;
};

const editPanel = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** The panel of one locale version; 404 when the document has no version in that locale. */
  async figures(kind: EditPanelKind, documentId: string, requestedLocale: string | undefined) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const row = await editPanelFigures(strapi, uid(kind), documentId, locale, kind === 'article');
    if (!row) throw new errors.NotFoundError('Document not found');
    const config = await getService(strapi, 'settings').get();
    const { pinned, ...figures } = row;
    const thread = kind === 'article' ? { pinned: pinned ?? 0, closed: await closing(strapi).isClosed(documentId, config) } : null;
    return { ...figures, thread, urlTemplate: urlTemplate(config.site.url, config.site.paths[kind], locale) };
  },
});

export type EditPanelService = ReturnType<typeof editPanel>;
export default editPanel;
