/** `/api/bag/newsletters…` (docs/newsletters.md): thin actions over the `newsletter-subscriptions` service. */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { escapeHtml } from '../comments';
import { linkTokenOf } from './newsletter-token.middleware';
import { sendHtml, tokenForm } from './pages';
import { setSubscriptionsRequest, subscribeRequest, tokenPageRequest, tokenPostRequest } from './newsletters.shapes';

/** The token's user; the routes are granted to Public so that a request without a token gets this 401, not a 403. */
const userOf = (ctx: Context): number => {
  const user = ctx.state.user as { id: number } | undefined;
  if (!user) throw new errors.UnauthorizedError('Missing or invalid credentials');
  return user.id;
};

const wantsHtml = (ctx: Context) => ctx.is('urlencoded') === 'urlencoded' && ctx.accepts('json', 'html') === 'html';

const newslettersController = ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService(strapi, 'newsletter-subscriptions');
  return {
    async list(ctx: Context) {
      ctx.body = { data: await service().list() };
    },

    subscribe: checked(subscribeRequest, async (ctx, { body }) => {
      const user = ctx.state.user as { id: number } | undefined;
      const answer = await service().subscribe(body, user);
      ctx.status = answer.status;
      ctx.body = answer.body;
    }),

    /** Changes nothing: link scanners fetch links. Its button posts the token back. */
    confirmPage: checked(tokenPageRequest, async (ctx) => {
      const token = linkTokenOf(ctx);
      await service().checkConfirm(token);
      sendHtml(ctx, 'Confirm your subscription', `<p>Receive this newsletter by e-mail?</p>${tokenForm(String(token), 'token', 'Confirm')}`);
    }),

    confirm: checked(tokenPostRequest, async (ctx) => {
      const answer = await service().confirm(linkTokenOf(ctx));
      if (wantsHtml(ctx)) sendHtml(ctx, 'Subscribed', `<p>${escapeHtml(answer.message)}</p>`);
      else ctx.body = answer;
    }),

    unsubscribePage: checked(tokenPageRequest, async (ctx) => {
      const token = linkTokenOf(ctx);
      const { name } = await service().checkUnsubscribe(token);
      sendHtml(ctx, 'Unsubscribe', `<p>Stop receiving ${escapeHtml(name)}?</p>${tokenForm(String(token), 'List-Unsubscribe', 'Unsubscribe')}`);
    }),

    /** RFC 8058 one-click (`List-Unsubscribe=One-Click`, form-encoded), JSON `{ token }`, or the page's button. */
    unsubscribe: checked(tokenPostRequest, async (ctx) => {
      const answer = await service().unsubscribe(linkTokenOf(ctx));
      if (wantsHtml(ctx)) sendHtml(ctx, 'Unsubscribed', `<p>${escapeHtml(answer.message)}</p>`);
      else ctx.body = answer;
    }),

    async subscriptions(ctx: Context) {
      ctx.body = await service().subscriptions(userOf(ctx));
    },

    setSubscriptions: checked(setSubscriptionsRequest, async (ctx, { body }) => {
      ctx.body = await service().setSubscriptions(userOf(ctx), body);
    }),
  };
};

export default newslettersController;
