/**
 * Typed client for cms-plugin-bag: accounts (login with captcha or an encrypted password, refresh, logout),
 * a `fetch` that sends the jwt and refreshes it once on a 401, and helpers for the content under `/api/bag`.
 * No runtime dependencies; runs in browsers and in Node 20 (global `fetch` and `crypto.subtle`).
 */
import { importPublicKey, rsaEncrypt } from './crypto';
import { solvePow, type PowChallenge, type SolvePowOptions } from './pow';
import { memoryStorage, type TokenStorage } from './storage';

export { solvePow, type PowChallenge, type SolvePowOptions } from './pow';
export { localStorageAdapter, memoryStorage, type TokenStorage } from './storage';

const JWT = 'jwt';
const REFRESH = 'refreshToken';

export interface ClientOptions {
  /** Origin of the Strapi server, e.g. `https://cms.example.com`; `''` (the default) means the page's own origin. */
  baseUrl?: string;
  /** Where tokens are kept; `memoryStorage()` unless given. */
  storage?: TokenStorage;
  /** A `fetch` implementation; the global one unless given. */
  fetch?: typeof globalThis.fetch;
}

export interface User {
  id: number;
  documentId: string;
  username: string;
  email: string;
  provider?: string;
  confirmed?: boolean;
  blocked?: boolean;
  createdAt?: string;
  updatedAt?: string;
  [field: string]: unknown;
}

export interface AuthResponse {
  jwt: string;
  refreshToken: string;
  user: User;
}

/** Captcha answer: `key` + `code` for an image or proof-of-work captcha, `code` alone for an e-mailed code. */
export interface CaptchaAnswer {
  key?: string;
  code?: string;
}

export interface LoginInput extends CaptchaAnswer {
  identifier: string;
  password: string;
  /** Send the password RSA-encrypted (`encryptedPassword`) instead of in plain text. */
  encrypt?: boolean;
}

export interface RegisterInput extends CaptchaAnswer {
  username: string;
  email: string;
  password: string;
  encrypt?: boolean;
}

export interface Pagination {
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export interface Author {
  id: number;
  documentId: string;
  username: string;
}

export interface Article {
  id: number;
  documentId: string;
  title: string;
  slug: string;
  summary?: string | null;
  content?: string | null;
  isTop?: boolean;
  views?: number;
  author?: Author | null;
  [field: string]: unknown;
}

export interface Page {
  id: number;
  documentId: string;
  title: string;
  slug: string;
  content?: string | null;
  seoTitle?: string | null;
  seoKeywords?: string | null;
  seoDescription?: string | null;
  views?: number;
  [field: string]: unknown;
}

export interface MenuItem {
  id: number;
  documentId: string;
  title: string;
  url: string;
  target: '_self' | '_blank';
  icon?: string | null;
  isHot?: boolean;
  order?: number;
  children: MenuItem[];
  [field: string]: unknown;
}

export interface Menu {
  id: number;
  documentId: string;
  title: string;
  slug: string;
  items: MenuItem[];
}

export interface Banner {
  id: number;
  documentId: string;
  title: string;
  subtitle?: string | null;
  link?: string | null;
  group: string;
  order: number;
  [field: string]: unknown;
}

export interface CommentNode {
  id: number;
  documentId: string;
  content: string;
  createdAt: string;
  isAdmin: boolean;
  author: Author | null;
  children: CommentNode[];
}

/** A reply in a paged thread: `replyCount` approved direct replies, fetched with `comments.replies`. */
export interface ThreadReply {
  id: number;
  documentId: string;
  content: string;
  createdAt: string;
  isAdmin: boolean;
  likes: number;
  author: Author | null;
  replyCount: number;
}

/** A root in a page of a thread, with its first replies (oldest first). */
export interface ThreadRoot extends ThreadReply {
  replies: ThreadReply[];
}

/** `next` is the cursor for the following page (pass it as `after`), null on the last page. */
export interface ThreadMeta {
  pagination: { pageSize: number; hasMore: boolean; next: string | null };
  total: number;
}

export type ThreadSort = 'createdAt:desc' | 'createdAt:asc' | 'top';

export interface CreatedComment {
  id: number;
  documentId: string;
  content: string;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: string;
  isAdmin: boolean;
  parent: unknown;
  article: unknown;
}

/** Strapi REST query parameters (`pagination`, `filters`, `sort`, `fields`, `populate`), serialized with brackets. */
export type Query = Record<string, unknown>;

/** A non-2xx answer, carrying Strapi's `error` object. */
export class CmsBagError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName?: string,
    readonly details?: unknown
  ) {
    super(message);
    this.name = 'CmsBagError';
  }
}

/** `{ a: { b: [1, 2] } }` → `a[b][0]=1&a[b][1]=2`, the notation Strapi's query parser reads. */
export const toQueryString = (query: Query): string => {
  const parts: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object') {
      for (const [child, inner] of Object.entries(value)) walk(inner, `${key}[${child}]`);
      return;
    }
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [key, value] of Object.entries(query)) walk(value, key);
  return parts.join('&');
};

const withQuery = (path: string, query?: Query) => {
  const qs = query ? toQueryString(query) : '';
  return qs ? `${path}?${qs}` : path;
};

const readError = async (response: Response): Promise<CmsBagError> => {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string; name?: string; details?: unknown } } | null;
  return new CmsBagError(response.status, body?.error?.message ?? response.statusText, body?.error?.name, body?.error?.details);
};

export function createClient(options: ClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const storage = options.storage ?? memoryStorage();
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  let publicKey: Promise<CryptoKey> | undefined;
  // Concurrent 401s share one refresh call.
  let refreshing: Promise<boolean> | undefined;

  const url = (path: string) => (/^https?:\/\//.test(path) ? path : `${baseUrl}${path}`);

  // Where the jwt may go: baseUrl's origin, under baseUrl's path. Without a page (Node) relative URLs are resolved
  // against a placeholder origin, so only what stays on it counts as own.
  const page = (globalThis as { location?: { href?: string } }).location?.href ?? 'http://own.invalid/';
  const scope = new URL(baseUrl || '/', page);
  const scopePath = scope.pathname.replace(/\/+$/, '');
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

  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  /** Exchanges the stored refresh token for a new jwt; on any failure the stored tokens are cleared. */
  const refresh = async (): Promise<boolean> => {
    refreshing ??= (async () => {
      const refreshToken = await storage.get(REFRESH);
      if (!refreshToken) {
        await clearTokens();
        return false;
      }
      try {
        const { jwt } = await send<{ jwt: string }>('/api/cms-plugin-bag/auth/refresh-token', json('POST', { refreshToken }));
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

  /** Base64 RSA-OAEP/SHA-256 ciphertext of `password` under the server's public key (fetched once). */
  const encryptPassword = async (password: string): Promise<string> => {
    publicKey ??= send<{ publicKey: string }>('/api/cms-plugin-bag/utils/rsa/public-key')
      .then(({ publicKey: pem }) => importPublicKey(pem))
      .catch((error: unknown) => {
        publicKey = undefined;
        throw error;
      });
    return rsaEncrypt(await publicKey, password);
  };

  const credentials = async ({ password, encrypt, ...rest }: { password: string; encrypt?: boolean }) =>
    encrypt ? { ...rest, encryptedPassword: await encryptPassword(password) } : { ...rest, password };

  const authenticate = async (path: string, body: Record<string, unknown>): Promise<AuthResponse> => {
    const auth = await send<AuthResponse>(path, json('POST', body));
    await storeTokens(auth);
    return auth;
  };

  /** A new proof-of-work challenge; `solvePow(challenge)` turns it into `{ key, code }`. */
  const getPowChallenge = () => send<PowChallenge>('/api/cms-plugin-bag/auth/captcha-pow');

  return {
    storage,
    fetch: authFetch,
    request,
    refresh,
    encryptPassword,

    /** Logs in and stores the jwt and the refresh token. */
    login: async (input: LoginInput) => authenticate('/api/cms-plugin-bag/auth/login', await credentials(input)),

    /** Registers, logs in and stores the tokens. */
    register: async (input: RegisterInput) => authenticate('/api/cms-plugin-bag/auth/register', await credentials(input)),

    /** Sends a 6-digit code to the e-mail address; `expiresIn` is in seconds. */
    sendCode: (identifier: string) =>
      send<{ message: string; expiresIn: number }>('/api/cms-plugin-bag/auth/send-code', json('POST', { identifier })),

    /** A new image captcha: show `svg`, send back `key` and what the user read as `code`. */
    getCaptcha: () => send<{ key: string; svg: string }>('/api/cms-plugin-bag/auth/captcha-image'),

    getPowChallenge,

    /** Fetches a proof-of-work challenge and solves it: spread the result into `login` or `register`. */
    powCaptcha: async (options?: SolvePowOptions) => solvePow(await getPowChallenge(), options),

    /** Revokes the refresh token on the server and clears the stored tokens (also when the server call fails). */
    logout: async (): Promise<void> => {
      const refreshToken = await storage.get(REFRESH);
      try {
        if (refreshToken) await send('/api/cms-plugin-bag/auth/logout', json('POST', { refreshToken }));
      } finally {
        await clearTokens();
      }
    },

    /** The logged-in user. */
    me: () => request<User>('/api/cms-plugin-bag/auth/me'),

    /** Whether a jwt is stored (it may have expired; the next request refreshes it). */
    isLoggedIn: async () => Boolean(await storage.get(JWT)),

    articles: {
      list: (query?: Query) => request<{ data: Article[]; meta: { pagination: Pagination } }>(withQuery('/api/bag/articles', query)),
      get: (slug: string) => request<{ data: Article }>(`/api/bag/articles/${encodeURIComponent(slug)}`),
    },
    pages: {
      list: (query?: Query) => request<{ data: Page[] }>(withQuery('/api/bag/pages', query)),
      get: (slug: string) => request<{ data: Page }>(`/api/bag/pages/${encodeURIComponent(slug)}`),
    },
    menus: {
      get: (slug: string) => request<{ data: Menu }>(`/api/bag/menus/${encodeURIComponent(slug)}`),
    },
    banners: {
      list: (group?: string) => request<{ data: Banner[] }>(group ? `/api/bag/banners/${encodeURIComponent(group)}` : '/api/bag/banners'),
    },
    categories: {
      list: () => request<{ data: unknown[] }>('/api/bag/categories'),
    },
    tags: {
      list: () => request<{ data: unknown[] }>('/api/bag/tags'),
    },
    comments: {
      /** The approved comment tree of an article (`documentId` or numeric id). */
      list: (article: string | number) =>
        request<{ data: CommentNode[]; meta: { total: number } }>(`/api/bag/articles/${encodeURIComponent(String(article))}/comments`),
      /** A page of an article's approved roots, each with its first replies; pass `meta.pagination.next` as `after`. */
      page: (article: string | number, options: { sort?: ThreadSort; pageSize?: number; after?: string } = {}) =>
        request<{ data: ThreadRoot[]; meta: ThreadMeta }>(
          withQuery(`/api/bag/articles/${encodeURIComponent(String(article))}/comments`, {
            sort: options.sort ?? 'createdAt:desc',
            ...(options.pageSize ? { pagination: { pageSize: options.pageSize } } : {}),
            ...(options.after ? { after: options.after } : {}),
          })
        ),
      /** A page of a comment's approved direct replies, oldest first. */
      replies: (comment: string | number, options: { pageSize?: number; after?: string } = {}) =>
        request<{ data: ThreadReply[]; meta: ThreadMeta }>(
          withQuery(`/api/bag/comments/${encodeURIComponent(String(comment))}/replies`, {
            ...(options.pageSize ? { pagination: { pageSize: options.pageSize } } : {}),
            ...(options.after ? { after: options.after } : {}),
          })
        ),
      /** Approved, visible comments per article (up to 100 ids), keyed as given. */
      counts: (articles: (string | number)[]) =>
        request<{ data: Record<string, number> }>(withQuery('/api/bag/comments/counts', { articles: articles.map(String).join(',') })),
      /** Posts a comment as the logged-in user (or as a guest); it starts `pending` unless auto-approve is on. */
      create: (input: { content: string; article: string | number; parent?: string | number }) =>
        request<{ data: CreatedComment }>('/api/bag/comments', json('POST', input)),
    },
  };
}

export type CmsBagClient = ReturnType<typeof createClient>;
