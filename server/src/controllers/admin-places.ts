/** The homepage widgets and the Content Manager side panel (`/cms-plugin-bag/widgets/…`, `/cms-plugin-bag/edit-panel/…`). */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { CONTENT_MANAGER_READ } from '../domain/admin-actions';
import { forbidden } from '../domain/errors';
import { uid } from '../domain/plugin-id';
import { getService } from '../services/get-service';
import { validateEditPanelRequest, validateMostReadQuery } from '../validation/places';

interface AdminAbility {
  can(action: string, subject?: string): boolean;
}

const adminPlacesController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async moderationQueue(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'comments').queue() };
  },

  async mostRead(ctx: Context) {
    ctx.body = await getService(strapi, 'views').mostRead(validateMostReadQuery(ctx.query).locale);
  },

  /** The panel shows what the Content Manager shows: its figures need read access to the document's type there. */
  async editPanel(ctx: Context) {
    const { kind, documentId, locale } = validateEditPanelRequest(ctx.params, ctx.query);
    const ability = ctx.state.userAbility as AdminAbility | undefined;
    if (!ability?.can(CONTENT_MANAGER_READ, uid(kind))) throw forbidden('Forbidden');
    ctx.body = { data: await getService(strapi, 'edit-panel').figures(kind, documentId, locale) };
  },
});

export default adminPlacesController;
