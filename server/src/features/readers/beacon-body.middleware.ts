/**
 * The beacon's body may come as `text/plain` (docs/readers.md#the-beacon): `navigator.sendBeacon(url, JSON.stringify(
 * …))` sends a string that way, the one type a browser sends cross-origin without a preflight. The host's body parser
 * leaves such a body a string; it is read here as the JSON it holds (a string that is not JSON stays, and the
 * declared request refuses it with a 400).
 */
import type { Context, Next } from 'koa';

const beaconBody = () => async (ctx: Context, next: Next) => {
  const { body } = ctx.request as { body?: unknown };
  if (typeof body === 'string' && ctx.is('text/plain')) {
    try {
      (ctx.request as { body?: unknown }).body = JSON.parse(body);
    } catch {
      // Left as it came: the check answers 400.
    }
  }
  await next();
};

export default beaconBody;

/** `config.middlewares` entry of `POST /bag/views`. */
export const BEACON_BODY = 'plugin::cms-plugin-bag.beacon-body';
