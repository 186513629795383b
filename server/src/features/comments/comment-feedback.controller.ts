/**
 * Likes and reports on comments: `/api/bag/comments/:id/like` (POST, DELETE) and `/api/bag/comments/:id/report`.
 * The controller is `comment-feedback` although the services are `comment-reactions` and `comment-reports`: its name
 * is part of the Users & Permissions actions (`plugin::cms-plugin-bag.comment-feedback.like`, …) stored in databases
 * and granted to roles, so it does not change.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { clientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import type { Voter } from './voter-key';
import { parseIdentifier } from './comments.validation';
import { validateReportBody } from './comment-feedback.validation';

/** The token's user, or a guest known by client address. */
const voterOf = (ctx: Context): Voter => {
  const user = ctx.state.user as { id: number } | undefined;
  return { user: user ? { id: user.id } : null, client: clientInfo(ctx) };
};

const commentFeedbackController = ({ strapi }: { strapi: Core.Strapi }) => ({
  async like(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    ctx.body = { data: await getService(strapi, 'comment-reactions').like(parseIdentifier(ctx.params.id), voterOf(ctx), config) };
  },

  async unlike(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    ctx.body = { data: await getService(strapi, 'comment-reactions').unlike(parseIdentifier(ctx.params.id), voterOf(ctx), config) };
  },

  async report(ctx: Context) {
    const config = await getService(strapi, 'settings').get();
    const input = validateReportBody(ctx.request.body, config.comments.reports.reasons);
    ctx.body = { data: await getService(strapi, 'comment-reports').report(parseIdentifier(ctx.params.id), voterOf(ctx), input, config) };
  },
});

export default commentFeedbackController;
