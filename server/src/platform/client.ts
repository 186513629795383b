/** What the server records about a client: its IP as the host sees it (koa `proxy` honoured) and its User-Agent. */
import { isIPv4, isIPv6 } from 'net';
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

/** The 8 groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part as two groups). */
const ipv6Groups = (address: string): number[] => {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parts = (side: string | undefined) => (side ? side.split(':').map((group) => parseInt(group, 16)) : []);
  if (tail === undefined) return parts(head);
  const before = parts(head);
  const after = parts(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
};

/**
 * Who a per-IP rate limit counts: an IPv4 address as it is, an IPv6 address by its /64 prefix (one subscriber or
 * host usually gets a whole /64, so counting single addresses would give it 2^64 fresh counters). An IPv4-mapped
 * IPv6 address (`::ffff:192.0.2.1`, as a dual-stack socket reports IPv4 clients) counts as its IPv4 address.
 */
export const rateLimitAddress = (ip: string): string => {
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
};

/**
 * The network a sign-in comes from, for sign-in alerts: an IPv4 address's /24, an IPv6 address's /48 (a site's usual
 * allocation), an IPv4-mapped IPv6 address as its IPv4 address.
 */
export const signInNetwork = (ip: string): string => {
  const address = rateLimitAddress(ip);
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  const bare = ip.split('%')[0];
  if (!isIPv6(bare)) return ip;
  return `${ipv6Groups(bare).slice(0, 3).map((group) => group.toString(16)).join(':')}::/48`;
};
