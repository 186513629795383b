/**
 * The client's connection to its server: where tokens are kept, plain requests, and a `fetch` that sends the jwt to
 * this server only and refreshes it once on a 401.
 */
import type { z } from 'zod/v4';
import type { refreshTokenResponse } from '../../server/src/features/accounts/auth.shapes';
import { readError } from './errors';
import { memoryStorage, type TokenStorage } from './storage';

const JWT = 'jwt';
const REFRESH = 'refreshToken';

export interface ClientOptions {
  /** Origin of the Strapi server, e.g. `https://cms.example.com`; `''` (the default) means the page's own origin. */
  baseUrl?: string;
  /** Where tokens are kept; `memoryStorage()` unless given. */
  storage?: TokenStorage;
  /** A `fetch` implementation; the global one unless given. */
  fetch?: typeof globalThis.fetch;
  /**
   * The locale of every content read unless a call gives its own (`{ locale }`), e.g. `'fr'`; unset: none is sent
   * and the server answers in the host's default locale.
   */
  locale?: string;
}

export const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

export function createSession(options: ClientOptions) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const storage = options.storage ?? memoryStorage();
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  // Concurrent 401s share one refresh call.
  let refreshing: Promise<boolean> | undefined;

  const url = (path: string) => (/^https?:\/\//.test(path) ? path : `${baseUrl}${path}`);

  // Where the jwt may go: baseUrl's origin, under baseUrl's path. Without a page (Node) relative URLs are resolved
  // against a placeholder origin, so only what stays on it counts as own.
  const page = (globalThis as { location?: { href?: string } }).location?.href ?? 'http://own.invalid/';
  const scope = new URL(baseUrl || '/', page);
  const scopePath = scope.pathname.replace(/\/+$/, '');
  /**
   * `path` as an absolute URL on this client's server: `baseUrl` + `path`; with no `baseUrl`, resolved against the
   * page's address (in a browser), or left as the path where there is no page (Node).
   */
  const absoluteUrl = (path: string) => {
    const target = url(path);
    if (/^https?:\/\//.test(target)) return target;
    const href = (globalThis as { location?: { href?: string } }).location?.href;
    return href ? new URL(target, href).href : target;
  };
  /** Whether a request URL is on this client's own server (parsed, so `//host`, `@host` and `..` cannot leave it). */
  const isOwn = (target: string) => {
    let resolved: URL;
    try {
      resolved = new URL(target, page);
    } catch {
      return false;
    }
    if (resolved.origin !== scope.origin) return false;
    return resolved.pathname === scopePath || resolved.pathname.startsWith(`${scopePath}/`);
  };

  const clearTokens = async () => {
    await storage.remove(JWT);
    await storage.remove(REFRESH);
  };

  const storeTokens = async (auth: { jwt: string; refreshToken?: string }) => {
    await storage.set(JWT, auth.jwt);
    if (auth.refreshToken) await storage.set(REFRESH, auth.refreshToken);
  };

  /** A request without the jwt; a non-2xx answer becomes a `CmsBagError`. */
  const send = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await doFetch(url(path), init);
    if (!response.ok) throw await readError(response);
    return (await response.json()) as T;
  };

  /** Exchanges the stored refresh token for a new jwt; on any failure the stored tokens are cleared. */
  const refresh = async (): Promise<boolean> => {
    refreshing ??= (async () => {
      const refreshToken = await storage.get(REFRESH);
      if (!refreshToken) {
        await clearTokens();
        return false;
      }
      try {
        const { jwt } = await send<z.infer<typeof refreshTokenResponse>>('/api/cms-plugin-bag/auth/refresh-token', json('POST', { refreshToken }));
        await storage.set(JWT, jwt);
        return true;
      } catch {
        await clearTokens();
        return false;
      }
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const withJwt = (init: RequestInit, jwt: string | null): RequestInit => {
    if (!jwt) return init;
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${jwt}`);
    return { ...init, headers };
  };

  /**
   * `fetch` with the stored jwt, sent to this client's own server only (`baseUrl`: same origin, under its path). On a
   * 401 from it, it refreshes the jwt once and retries once; if the refresh fails the stored tokens are cleared and
   * the 401 is returned.
   */
  const authFetch = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const target = url(path);
    const sentJwt = isOwn(target) ? await storage.get(JWT) : null;
    const response = await doFetch(target, withJwt(init, sentJwt));
    if (response.status !== 401 || !sentJwt) return response;
    // A request that left before a concurrent refresh finished retries with the new jwt without refreshing again.
    const current = await storage.get(JWT);
    const refreshed = current !== null && current !== sentJwt ? true : await refresh();
    if (!refreshed) return response;
    return doFetch(target, withJwt(init, await storage.get(JWT)));
  };

  /** `authFetch` + JSON + `CmsBagError` on a non-2xx answer. */
  const request = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await authFetch(path, init);
    if (!response.ok) throw await readError(response);
    return (await response.json()) as T;
  };

  return {
    /** The client's default locale for content reads (`ClientOptions.locale`). */
    locale: options.locale,
    absoluteUrl,
    storage,
    send,
    request,
    authFetch,
    refresh,
    storeTokens,
    clearTokens,
    refreshToken: () => storage.get(REFRESH),
    hasJwt: async () => Boolean(await storage.get(JWT)),
  };
}

export type Session = ReturnType<typeof createSession>;
