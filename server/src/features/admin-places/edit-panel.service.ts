/**
 * The Content Manager side panel of articles and pages (docs/admin.md): views, comments by status (*Moderate comments*), the thread's
 * pinned roots and closed state, the published slug and the front end's URL template for the SEO preview. The warnings are the panel's own reading of these.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { forbidden } from '../../platform/errors';
import { uid } from '../../platform/plugin-id';
import type { EDIT_PANEL_KINDS } from './admin-places.shapes';
import { editPanelFigures } from './edit-panel.data';
import { permissionPopulate, type PermissionChecker } from '../../platform/permission-checker';
import { closing } from '../comments';
import { getService } from '../../platform/get-service';

export type EditPanelKind = (typeof EDIT_PANEL_KINDS)[number];

/** `site.url` + `site.paths.<kind>` with `{locale}` filled and `{slug}` kept; null while `site.url` is unset. */
const urlTemplate = (url: string | undefined, path: string, locale: string): string | null => {
  if (!url) return null;
  const filled = path.replace(/\{locale\}/g, encodeURIComponent(locale));
  return `${url.replace(/\/+$/, '')}${filled.startsWith('/') ? '' : '/'}${filled}`;
};

const editPanel = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * The panel of one locale version, for an admin the Content Manager lets read it (`checker`, its permission
   * checker on the type): else 403, also for a document that does not exist when the admin's read depends on who
   * wrote the document (a condition such as *Is creator*), so the answer never tells which documents exist. 404 when
   * the document has no version in that locale and the admin may read any document there. `comments` only for
   * `moderates` (*Moderate comments*); absent otherwise.
   */
  async figures(kind: EditPanelKind, documentId: string, requestedLocale: string | undefined, checker: PermissionChecker, moderates: boolean) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const model = uid(kind);
    const populate = await permissionPopulate(strapi, checker, 'read', model);
    const version = await strapi.documents(model).findOne({ documentId, locale, status: 'draft', populate } as never);
    // A missing version is asked about as the bare document: a condition on its author (*Is creator*) then fails,
    // one on its locale holds, so only an admin who may read any document there learns that it does not exist.
    if (checker.cannot.read(version ?? { documentId, locale })) throw forbidden('Forbidden');
    const row = version && (await editPanelFigures(strapi, model, documentId, locale, kind === 'article'));
    if (!row) throw new errors.NotFoundError('Document not found');
    const config = await getService(strapi, 'settings').get();
    const { pinned, comments, ...figures } = row;
    const thread = kind === 'article' ? { pinned: pinned ?? 0, closed: await closing(strapi).isClosed(documentId, config) } : null;
    return {
      ...figures,
      ...(moderates || comments === null ? { comments } : {}),
      thread,
      urlTemplate: urlTemplate(config.site.url, config.site.paths[kind], locale),
    };
  },

  /** The chart's last 30 days of views, under the same read check as `figures` (403, or 404 for a missing version). */
  async daily(kind: EditPanelKind, documentId: string, requestedLocale: string | undefined, checker: PermissionChecker) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const model = uid(kind);
    const populate = await permissionPopulate(strapi, checker, 'read', model);
    const version = await strapi.documents(model).findOne({ documentId, locale, status: 'draft', populate } as never);
    if (checker.cannot.read(version ?? { documentId, locale })) throw forbidden('Forbidden');
    if (!version) throw new errors.NotFoundError('Document not found');
    return getService(strapi, 'readers').series(kind, documentId, 30);
  },
});

export type EditPanelService = ReturnType<typeof editPanel>;
export default editPanel;
