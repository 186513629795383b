/**
 * `/api/bag/comments/unsubscribe?token=…`, the link in every notification e-mail. `GET` (and so `HEAD`) only shows a
 * confirmation page: mail scanners and link previews fetch links, and must not unsubscribe anyone. `POST` unsubscribes:
 * the page's button, or a mail client's RFC 8058 one-click (`List-Unsubscribe=One-Click`, nothing else needed).
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { unsubscribeTokenOf } from './unsubscribe-token.middleware';
import type { NotificationKind } from './notifications';
import { escapeHtml } from './notifications';
import { getService } from '../../platform/get-service';
import { checked } from '../../platform/request-check';
import { confirmRequest, unsubscribeRequest } from './comment-unsubscribe.shapes';

const WHAT: Record<NotificationKind, string> = {
  reply: 'e-mails about replies to your comments',
  digest: 'digests of comments waiting for moderation',
  follow: 'e-mails about new comments in threads you follow',
};

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/** The URL holds the token: no caching, and no Referer carrying it anywhere. */
const sendHtml = (ctx: Context, html: string) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
};

const commentUnsubscribeController = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** The confirmation page; changes nothing. Its form posts back to this same URL (no `action`), token included. */
  confirm: checked(confirmRequest, async (ctx) => {
    const { kind } = getService(strapi, 'comment-notifications').checkUnsubscribe(unsubscribeTokenOf(ctx));
    sendHtml(
      ctx,
      page(
        'Unsubscribe',
        `<p>Stop ${escapeHtml(WHAT[kind])}?</p>` +
          `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`
      )
    );
  }),

  /** JSON for programs (one-click POSTs); a page for a person who pressed the button. */
  unsubscribe: checked(unsubscribeRequest, async (ctx) => {
    const { kind } = await getService(strapi, 'comment-notifications').unsubscribe(unsubscribeTokenOf(ctx));
    if (ctx.accepts('json', 'html') === 'html') {
      sendHtml(ctx, page('Unsubscribed', `<p>You will no longer receive ${escapeHtml(WHAT[kind])}.</p>`));
      return;
    }
    ctx.body = { data: { unsubscribed: true, kind } };
  }),
});

export default commentUnsubscribeController;
