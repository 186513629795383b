/** What the server records about a client: its IP as the host sees it (koa `proxy` honoured) and its User-Agent. */
import type { Context } from 'koa';

export const USER_AGENT_MAX_LENGTH = 512;

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const clientInfo = (ctx: Pick<Context, 'request' | 'get'>): ClientInfo => ({
  // koa's request.ip reads X-Forwarded-For only when `server.proxy.koa` is on, so a client cannot spoof it otherwise.
  ip: (ctx.request.ip || '').slice(0, 64),
  userAgent: (ctx.get('user-agent') || '').slice(0, USER_AGENT_MAX_LENGTH),
});
