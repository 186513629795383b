/** The HTML pages of a mailed link (confirm, unsubscribe): a button that posts back to the same URL; a GET changes nothing. */
import type { Context } from 'koa';
import { escapeHtml } from '../comments';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

/** The URL holds the token: no caching, and no Referer carrying it anywhere. */
export const sendHtml = (ctx: Context, title: string, body: string) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page(title, body);
};

/** A form posting the token back (in the body: the URL the page was served from has lost it, see newsletter-token.middleware.ts). */
export const tokenForm = (token: string, field: 'token' | 'List-Unsubscribe', label: string) =>
  `<form method="post">` +
  `<input type="hidden" name="token" value="${escapeHtml(token)}">` +
  (field === 'List-Unsubscribe' ? `<input type="hidden" name="List-Unsubscribe" value="One-Click">` : '') +
  `<button type="submit">${escapeHtml(label)}</button></form>`;
