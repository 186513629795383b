/**
 * GETs under /api/bag (docs/caching.md): `ETag` and `Cache-Control` on every 200, `If-None-Match` → 304,
 * and the server-side cache of anonymous answers. Mounted with `strapi.server.use` in bootstrap: after the app's own
 * middlewares (errors, security headers, CORS, query parsing), before the router, so a hit skips routing and the
 * Users & Permissions lookup. What those would decide is checked here with the same coherence as the data: the
 * entry's Users & Permissions actions against the Public role's, re-read whenever a role or permission changed.
 *
 * - A request with an `Authorization` header never reads nor fills the cache; its 200 gets `private, no-cache`.
 * - An anonymous hit needs the versions of its scopes to be current (services/cache/cache-versions.ts): one SELECT.
 * - A streamed answer (the sitemap) is not kept; its ETag is made of its URL and the versions read before it was
 *   computed, so a 304 never confirms older content (a write between raises a version, and the next ETag differs).
 * - `views` is never served from memory: a detail hit counts the read (services/content/views.ts) and shows that count; a
 *   list hit reads the rows' counts (repositories/cache/views.ts). A detail's ETag is weak and ignores `views`.
 */
import crypto from 'crypto';
import { Readable } from 'stream';
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { uid as pluginUid } from '../domain/plugin-id';
import { viewCounts } from '../repositories/cache/views';
import type { CacheScope } from '../domain/cache-scopes';
import { getService } from '../services/get-service';
import type { CacheEntry, ViewSlots } from '../services/cache/response-cache';

/** Per controller: what its answers show, so which writes make them stale. */
const SCOPES: Record<string, readonly CacheScope[]> = {
  comment: ['content', 'comments', 'permissions'],
};
const CONTENT_SCOPES: readonly CacheScope[] = ['content', 'permissions'];
const COUNTED = new Set(['article', 'page']);

const TOKEN = `bag-views-${crypto.randomBytes(9).toString('hex')}`;
const QUOTED_TOKEN = `"${TOKEN}"`;

interface RouteState {
  handler?: unknown;
  config?: { auth?: { scope?: unknown }; policies?: unknown[]; middlewares?: unknown[] };
}

const hash = (text: string) => crypto.createHash('sha1').update(text).digest('base64url');

/** The path and the query string with its parameters in key order (repeated keys keep their order). */
const keyOf = (ctx: Context) => {
  if (!ctx.querystring) return ctx.path;
  const params = ctx.querystring
    .split('&')
    .filter(Boolean)
    .map((param, index) => ({ param, name: param.split('=')[0], index }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.index - b.index));
  return `${ctx.path}?${params.map(({ param }) => param).join('&')}`;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** `controller`, `action` of a route of this plugin, from its Users & Permissions action. */
const handlerOf = (actions: string[]) => {
  const [action] = actions;
  const prefix = 'plugin::cms-plugin-bag.';
  if (actions.length !== 1 || !action?.startsWith(prefix)) return undefined;
  const [controller, name] = action.slice(prefix.length).split('.');
  return { controller, name };
};

/** Cuts the `views` counts out of an article's or page's answer: the JSON around them, and where they belong. */
const splitViews = (controller: string, name: string, body: Record<string, unknown>): { parts: string[]; views?: ViewSlots } => {
  const whole = () => ({ parts: [JSON.stringify(body)] });
  if (!COUNTED.has(controller)) return whole();
  const uid = pluginUid(controller as 'article');
  const { data } = body;
  if (name === 'findOne' && isPlainObject(data) && typeof data.views === 'number' && typeof data.documentId === 'string') {
    const parts = JSON.stringify({ ...body, data: { ...data, views: TOKEN } }).split(QUOTED_TOKEN);
    return parts.length === 2 ? { parts, views: { uid, kind: 'detail', documentId: data.documentId } } : whole();
  }
  if (name === 'find' && Array.isArray(data)) {
    const ids: number[] = [];
    const items = data.map((item: unknown) => {
      if (!isPlainObject(item) || typeof item.views !== 'number' || typeof item.id !== 'number') return item;
      ids.push(item.id);
      return { ...item, views: TOKEN };
    });
    if (ids.length === 0) return whole();
    const parts = JSON.stringify({ ...body, data: items }).split(QUOTED_TOKEN);
    return parts.length === ids.length + 1 ? { parts, views: { uid, kind: 'list', ids } } : whole();
  }
  return whole();
};

const join = (parts: string[], counts: number[]) => {
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 1) out += String(counts[i - 1]) + parts[i];
  return out;
};

/** A cached body with today's counts, as bytes. */
const joinBytes = (parts: Buffer[], counts: number[]) => {
  if (parts.length === 1) return parts[0];
  const chunks: Buffer[] = [parts[0]];
  for (let i = 1; i < parts.length; i += 1) chunks.push(Buffer.from(String(counts[i - 1])), parts[i]);
  return Buffer.concat(chunks);
};

/** A list's strong ETag: its JSON without the counts (hashed once, when stored) and the counts, so the bytes. */
const listEtag = (partsHash: string, counts: number[]) => `"${hash(`${partsHash} ${counts.join(',')}`)}"`;

/** A detail's ETag is weak and ignores `views`; any other answer's but a list with counts is strong, over its bytes. */
const etagOf = (parts: string[], views: ViewSlots | undefined, body: string) =>
  views?.kind === 'detail' ? `W/"${hash(parts.join(TOKEN))}"` : `"${hash(body)}"`;

/** `If-None-Match` matches `etag` (weak comparison, as RFC 9110 asks for this header). */
const notModified = (ctx: Context, etag: string) => {
  const header = ctx.get('if-none-match');
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque;
  });
};

const responseCache = ({ strapi }: { strapi: Core.Strapi }) => {
  const apiPrefix = String(strapi.config.get('api.rest.prefix', '/api')).replace(/\/$/, '');
  const base = `${apiPrefix}/bag/`;
  const cacheControl = () => {
    const { maxAge, sMaxAge, staleWhileRevalidate } = getService(strapi, 'settings').file().cache.http;
    if (maxAge === 0 && sMaxAge === 0 && staleWhileRevalidate === 0) return 'public, no-cache';
    let value = `public, max-age=${maxAge}`;
    if (sMaxAge > 0) value += `, s-maxage=${sMaxAge}`;
    if (staleWhileRevalidate > 0) value += `, stale-while-revalidate=${staleWhileRevalidate}`;
    return value;
  };

  const send = (ctx: Context, body: string | Buffer, etag: string, control: string, contentType = 'application/json') => {
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', control);
    // A shared cache may give a `public` answer to a request with credentials unless told the answer depends on them.
    ctx.vary('Authorization');
    if (notModified(ctx, etag)) {
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    ctx.status = 200;
    ctx.body = body;
    ctx.type = contentType;
  };

  /** A streamed 200: ETag from the URL and the versions read before it, then 304 (the stream dropped) or the stream. */
  const sendStream = (ctx: Context, key: string, versions: Map<string, number>, control: string) => {
    const stream = ctx.body as Readable;
    const etag = `W/"${hash(`${key} ${[...versions].sort().join(' ')}`)}"`;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', control);
    ctx.vary('Authorization');
    if (notModified(ctx, etag)) {
      stream.destroy();
      ctx.status = 304;
      ctx.body = null;
    }
  };

  /** The answer from `entry` with today's view counts; undefined when a counted row is gone (then computed anew). */
  const answerOf = async (entry: CacheEntry): Promise<{ body: Buffer; etag: string } | undefined> => {
    const { views } = entry;
    if (!views) return { body: entry.parts[0], etag: entry.etag! };
    if (views.kind === 'detail') {
      const count = await getService(strapi, 'views').increment(views.uid as never, views.documentId);
      return count === null ? undefined : { body: joinBytes(entry.parts, [count]), etag: entry.etag! };
    }
    const rows = await viewCounts(strapi, views.uid, views.ids);
    if (views.ids.some((id) => !rows.has(id))) return undefined;
    const counts = views.ids.map((id) => rows.get(id)!);
    return { body: joinBytes(entry.parts, counts), etag: listEtag(entry.partsHash!, counts) };
  };

  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' || !ctx.path.startsWith(base)) return next();
    const anonymous = !ctx.get('authorization');
    const cache = getService(strapi, 'response-cache');
    const key = keyOf(ctx);
    let versions: Map<string, number> | undefined;

    // A streamed answer's ETag is made of the versions, read before it is computed, cache on or off.
    if ((anonymous && cache.enabled()) || ctx.path.startsWith(`${base}sitemap`)) {
      // Database unreachable: the request goes the normal way (and gets the answer an outage gets there).
      versions = await getService(strapi, 'cache-versions')
        .read()
        .catch(() => undefined);
    }
    const entry = versions && cache.get(key, versions);
    if (entry) {
      // A failed database call here (an outage) also sends the request the normal way.
      const answer = await (async () => {
        if (!(await cache.publicMay(entry.actions, versions!.get('permissions') ?? 0))) return undefined;
        return answerOf(entry);
      })().catch(() => undefined);
      if (answer !== undefined) {
        cache.hit(entry.type);
        send(ctx, answer.body, answer.etag, cacheControl(), entry.contentType);
        return;
      }
    }

    await next();

    if (ctx.status !== 200 || ctx.response.get('Cache-Control')) return;
    const control = anonymous ? cacheControl() : 'private, no-cache';
    if (ctx.body instanceof Readable) {
      if (versions) sendStream(ctx, key, versions, control);
      return;
    }
    // An object (koa would write it), or text the controller wrote itself (deep trees as JSON: utils/json.ts; feeds).
    const written = typeof ctx.body === 'string' ? ctx.body : undefined;
    const contentType = written === undefined ? 'application/json' : ctx.response.get('Content-Type') || 'application/json';
    if (!isPlainObject(ctx.body) && written === undefined) return;
    const route = ctx.state.route as RouteState | undefined;
    const scope = route?.config?.auth?.scope;
    const actions = Array.isArray(scope) ? scope.map(String) : [];
    const handler = handlerOf(actions);
    const { parts, views } =
      written !== undefined
        ? { parts: [written] }
        : handler
          ? splitViews(handler.controller, handler.name, ctx.body as Record<string, unknown>)
          : { parts: [JSON.stringify(ctx.body)] };
    const data = (ctx.body as { data?: unknown }).data;
    const counts = views?.kind === 'detail' ? [(data as { views: number }).views] : [];
    if (views?.kind === 'list') {
      const byId = new Map((data as { id?: number; views?: number }[]).map((item) => [item.id, item.views]));
      for (const id of views.ids) counts.push(byId.get(id) as number);
    }
    const body = join(parts, counts);
    const partsHash = views?.kind === 'list' ? hash(parts.join(TOKEN)) : undefined;
    const etag = partsHash !== undefined ? listEtag(partsHash, counts) : etagOf(parts, views, body);

    const cacheable =
      versions !== undefined &&
      handler !== undefined &&
      !ctx.state.user &&
      !(ctx.state.auth as { credentials?: unknown } | undefined)?.credentials &&
      (route?.config?.policies ?? []).length === 0 &&
      (route?.config?.middlewares ?? []).length === 0;
    if (cacheable) {
      cache.miss(handler.controller);
      const stored = parts.map((part) => Buffer.from(part));
      const bytes = Buffer.byteLength(key) + stored.reduce((sum, part) => sum + part.length, 0);
      cache.set({
        key,
        type: handler.controller,
        actions,
        versions: versions!,
        scopes: SCOPES[handler.controller] ?? CONTENT_SCOPES,
        parts: stored,
        views,
        ...(partsHash !== undefined ? { partsHash } : { etag }),
        contentType,
        bytes,
      });
    }
    send(ctx, body, etag, control, contentType);
  };
};

export default responseCache;
