import type { z } from 'zod/v4';
import type { ActionName } from '../controllers';
import type { CacheScope } from './cache-scopes';
import type { RateLimitMiddlewareConfig } from './rate-limit.middleware';

/** A route's handler: `controller.action`, type-checked against the controllers (see `ActionName`). */
export type Handler = ActionName;

type MiddlewareRef = string | { name: string; config?: unknown };

export interface PluginRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  handler: Handler;
  /**
   * What the route reads (shapes in `features/<feature>/*.shapes.ts`): the host's OpenAPI document shows it, and it is
   * the check. The host checks a route's `request` only in its core controllers; the plugin's action is
   * `checked(request, …)` with this same request (platform/request-check.ts), parsed before it runs.
   */
  request?: {
    params?: Record<string, z.ZodType>;
    query?: Record<string, z.ZodType>;
    body?: { 'application/json': z.ZodType };
  };
  /** The 200/201 body. */
  response?: z.ZodType;
  /** A GET whose anonymous answers the response cache may keep, and how (docs/caching.md). Undeclared: never kept. */
  cache?: RouteCache;
  config?: {
    /** '' serves the route outside the plugin prefix, under its full path (e.g. `/bag/articles` → `/api/bag/articles`). */
    prefix?: string;
    auth?: false | { scope?: string[] };
    policies?: MiddlewareRef[];
    middlewares?: MiddlewareRef[];
  };
}

/** What the response cache needs to know of a route's answers. */
export interface RouteCache {
  /** Which writes make them stale (platform/cache-scopes.ts says which model raises which scope). */
  scopes: readonly CacheScope[];
  /** Where they show `views`, which is never served from memory: an article's or page's detail, or a list of them. */
  views?: { type: 'article' | 'page'; kind: 'detail' | 'list' };
}

/** Answers that show content (the seven content types, their media, authors, locales); every hit checks the Public role. */
export const CONTENT_CACHE: RouteCache = { scopes: ['content', 'permissions'] };
/** Answers that also show comments, likes and reports. */
export const COMMENTS_CACHE: RouteCache = { scopes: ['content', 'comments', 'permissions'] };

export type RoleType = 'public' | 'authenticated';

/** A group of content-API routes and the Users & Permissions roles granted its actions on first start. */
export interface RouteModule {
  routes: PluginRoute[];
  grants: Partial<Record<RoleType, Handler[]>>;
}

/** Route middleware counting requests against `rateLimit.<limit>` (see platform/rate-limit.middleware.ts). */
export const rateLimited = (limit: RateLimitMiddlewareConfig['limit'], identifierField?: string, escalate?: boolean) => ({
  name: 'plugin::cms-plugin-bag.rate-limit',
  config: { limit, identifierField, escalate } satisfies RateLimitMiddlewareConfig,
});

/** `request` of a route whose body is JSON of this shape. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({ body: { 'application/json': schema } });
