/** Moderation API for the admin panel (`/cms-plugin-bag/comments…`), guarded by `comments.moderate`. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { getService } from '../../platform/get-service';
import { validateAdminListQuery, validateCloseBody, validateContent, validatePinBody, validateStatusBody } from './comments.validation';

/** Who may read a user's e-mail in the Content Manager; the same right shows it on the moderation list. */
const READ_USERS = { action: 'plugin::content-manager.explorer.read', subject: USER_UID, field: 'email' };

interface AdminAbility {
  can(action: string, subject: string, field?: string): boolean;
}

const mayReadUserEmails = (ctx: Context): boolean => {
  const ability = ctx.state.userAbility as AdminAbility | undefined;
  return Boolean(ability?.can(READ_USERS.action, READ_USERS.subject, READ_USERS.field));
};

const adminCommentController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = await getService(strapi, 'comments').adminList(validateAdminListQuery(ctx.query), { showEmails: mayReadUserEmails(ctx) });
  },

  async setStatus(ctx: Context) {
    const { documentIds, status } = validateStatusBody(ctx.request.body);
    ctx.body = { data: { updated: await getService(strapi, 'comments').setStatus(documentIds, status) } };
  },

  async reply(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    const body = (ctx.request.body ?? {}) as { content?: unknown };
    const content = validateContent(body.content, config.comments.maxLength);
    ctx.body = { data: await getService(strapi, 'comments').adminReply(String(ctx.params.documentId), content) };
  },

  async pin(ctx: Context) {
    const pinned = validatePinBody(ctx.request.body);
    ctx.body = { data: await getService(strapi, 'comments').pin(String(ctx.params.documentId), pinned) };
  },

  async close(ctx: Context) {
    const closed = validateCloseBody(ctx.request.body);
    ctx.body = { data: await getService(strapi, 'comments').setClosed(String(ctx.params.documentId), closed) };
  },
});

export default adminCommentController;
