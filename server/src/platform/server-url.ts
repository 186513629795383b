/**
 * The host's own absolute URL, read from its configuration only: what feeds, sitemaps and mails put before the path
 * of an uploaded file or of one of this server's routes. A request's `Host` or `X-Forwarded-*` headers never enter it,
 * so a body (and the response cache that keeps it) is the same whoever asked. See docs/discovery.md#absolute-urls.
 */
import { isIP } from 'net';

/** The host's `server` configuration, as `strapi.config.get('server')` returns it. */
export interface ServerConfig {
  url?: unknown;
  host?: unknown;
  port?: unknown;
}

/** Addresses a server listens on but no client can connect to. */
const UNSPECIFIED = new Set(['', '0.0.0.0', '::']);

/**
 * `server.url` when it is absolute (without a trailing slash); else `http://<server.host>:<server.port>` followed by a
 * relative `server.url` (the path a proxy mounts the host under), with `0.0.0.0` and `::` read as `localhost` and an
 * IPv6 host in brackets.
 */
export const serverUrl = (server: ServerConfig): string => {
  const url = typeof server.url === 'string' ? server.url.trim().replace(/\/+$/, '') : '';
  if (/^https?:\/\//i.test(url)) return url;
  const configured = typeof server.host === 'string' ? server.host.trim() : '';
  const host = UNSPECIFIED.has(configured) ? 'localhost' : isIP(configured) === 6 ? `[${configured}]` : configured;
  const port = server.port === undefined || server.port === null || server.port === '' ? 1337 : Number(server.port);
  const path = url === '' || url.startsWith('/') ? url : `/${url}`;
  return `http://${host}:${port}${path}`;
};
