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
import { checked } from '../../platform/request-check';
import { parseIdentifier } from '../../platform/shapes/common';
import { likeRequest, reportRequest } from './comment-feedback.shapes';

/** The token's user, or a guest known by client address. */
const voterOf = (ctx: Context): Voter => {
  const user = ctx.state.user as { id: number } | undefined;
  return { user: user ? { id: user.id } : null, client: clientInfo(ctx) };
};

const commentFeedbackController = ({ strapi }: { strapi: Core.Strapi }) => ({
  like: checked(likeRequest, async (ctx, { params }) => {
    const config = await getService(strapi, 'settings').get();
    ctx.body = { data: await getService(strapi, 'comment-reactions').like(parseIdentifier(params.id), voterOf(ctx), config) };
  }),

  unlike: checked(likeRequest, async (ctx, { params }) => {
    const config = await getService(strapi, 'settings').get();
    ctx.body = { data: await getService(strapi, 'comment-reactions').unlike(parseIdentifier(params.id), voterOf(ctx), config) };
  }),

  report: checked(reportRequest, async (ctx, { params, body: input }) => {
    const config = await getService(strapi, 'settings').get();
    ctx.body = { data: await getService(strapi, 'comment-reports').report(parseIdentifier(params.id), voterOf(ctx), input, config) };
  }),
});

export default commentFeedbackController;
