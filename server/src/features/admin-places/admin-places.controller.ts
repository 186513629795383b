/** The homepage widgets and the Content Manager side panel (`/cms-plugin-bag/widgets/…`, `/cms-plugin-bag/edit-panel/…`). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ADMIN_ACTIONS } from '../../platform/admin-actions';
import { forbidden } from '../../platform/errors';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import { permissionChecker, type PermissionChecker } from '../../platform/permission-checker';
import { checked } from '../../platform/request-check';
import { editPanelRequest, mostReadRequest } from './admin-places.shapes';

interface AdminAbility {
  can(action: string, subject?: string): boolean;
}

/** The Content Manager's checker on `kind` for this admin; 403 when the admin may not read that type there at all. */
const readerOf = (strapi: Core.Strapi, ctx: Context, kind: 'article' | 'page'): PermissionChecker => {
  const checker = permissionChecker(strapi, ctx.state.userAbility, uid(kind));
  if (!checker || checker.cannot.read()) throw forbidden('Forbidden');
  return checker;
};

const adminPlacesController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async moderationQueue(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'comments').queue() };
  },

  /** Published articles only, and only those the admin's role may read in the Content Manager. */
  mostRead: checked(mostReadRequest, async (ctx, { query }) => {
    ctx.body = await getService(strapi, 'views').mostRead(query.locale || undefined, readerOf(strapi, ctx, 'article'), query.period);
  }),

  /**
   * The panel shows what the Content Manager shows: its figures need read access to the document there (403 whether
   * or not it exists), and the comments by status *Moderate comments*.
   */
  editPanel: checked(editPanelRequest, async (ctx, { params, query }) => {
    const checker = readerOf(strapi, ctx, params.kind);
    const moderates = Boolean((ctx.state.userAbility as AdminAbility).can(ADMIN_ACTIONS.commentsModerate));
    ctx.body = { data: await getService(strapi, 'edit-panel').figures(params.kind, params.documentId, query.locale || undefined, checker, moderates) };
  }),

  /** The side panel's chart (docs/readers.md#in-the-admin): the same read check as the panel. */
  editPanelDaily: checked(editPanelRequest, async (ctx, { params, query }) => {
    ctx.body = { data: await getService(strapi, 'edit-panel').daily(params.kind, params.documentId, query.locale || undefined, readerOf(strapi, ctx, params.kind)) };
  }),
});

export default adminPlacesController;
