/** Moderation API for the admin panel (`/cms-plugin-bag/comments…`), guarded by `comments.moderate`. */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import * as shapes from './admin-comments.shapes';

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
  find: checked(shapes.moderationRequest, async (ctx, { query }) => {
    // An empty filter is absent.
    const { status, article, reported, page, pageSize } = query;
    const list = { status: status || undefined, article: article || undefined, reported: reported === 'true', page, pageSize };
    ctx.body = await getService(strapi, 'comments').adminList(list, { showEmails: mayReadUserEmails(ctx) });
  }),

  setStatus: checked(shapes.statusRequest, async (ctx, { body }) => {
    ctx.body = { data: { updated: await getService(strapi, 'comments').setStatus(body.documentIds, body.status) } };
  }),

  reply: checked(shapes.replyRequest, async (ctx, { params, body }) => {
    ctx.body = { data: await getService(strapi, 'comments').adminReply(params.documentId, body.content) };
  }),

  pin: checked(shapes.pinRequest, async (ctx, { params, body }) => {
    ctx.body = { data: await getService(strapi, 'comments').pin(params.documentId, body.pinned) };
  }),

  close: checked(shapes.closeRequest, async (ctx, { params, body }) => {
    ctx.body = { data: await getService(strapi, 'comments').setClosed(params.documentId, body.closed) };
  }),
});

export default adminCommentController;
