/**
 * GETs under /api/bag (docs/caching.md): `ETag` and `Cache-Control` on every 200, `If-None-Match` → 304, and the
 * server-side cache of anonymous answers. Mounted with `strapi.server.use` in bootstrap: after the app's own
 * middlewares (errors, security headers, CORS, query parsing), before the router, so a hit skips routing and the
 * Users & Permissions lookup. What those would decide is checked here with the same coherence as the data: the
 * entry's Users & Permissions actions against the Public role's, re-read whenever a role or permission changed.
 *
 * - A request with an `Authorization` header never reads nor fills the cache; its 200 gets `private, no-cache`.
 * - An anonymous hit needs the versions of its scopes to be current (features/cache/cache-versions.ts): one SELECT.
 * - A streamed answer (the sitemap) gets an ETag made of its URL and the versions read before it was computed, so a
 *   304 never confirms older content (a write between raises a version, and the next ETag differs); an anonymous one
 *   is kept compressed once it has ended, under those versions (and its text beside it, once a client without gzip
 *   asked for it).
 * - Entries and ETags are made by the cache service, which also puts today's `views` into a hit (never served from
 *   memory). A detail's ETag is weak and ignores `views`.
 */
import crypto from 'crypto';
import { Readable, pipeline } from 'stream';
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { getService } from '../../platform/get-service';
import { readCounts } from '../../platform/crawlers';
import { yieldToEventLoop } from '../../platform/json';
import type { CachedAnswer, ResponseCacheService } from './response-cache';
import type { CacheVersionsService } from './cache-versions';

interface RouteState {
  handler?: unknown;
  config?: { auth?: { scope?: unknown }; policies?: unknown[]; middlewares?: unknown[] };
}

/** Text a controller wrote that is longer than this is hashed and encoded on a turn of its own. */
const BIG_TEXT = 256 * 1024;

const hash = (text: string) => crypto.createHash('sha1').update(text).digest('base64url');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** JSON of a parsed query with every object's keys in order; arrays keep theirs (`sort[]` order is meaningful). */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonical(record[name])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** Query strings whose canonical form is remembered (`?locale=fr` on every hit), and the longest one remembered. */
const KNOWN_QUERIES = 512;
const KNOWN_QUERY_LENGTH = 256;

/**
 * The path and the query as the host's parser reads it (`ctx.query`), serialized canonically: parameters in any order
 * or percent-encoded differently are one entry when they mean the same, and two URLs that mean different things
 * (`sort%5B%5D=a&sort[]=b` against `sort[]=b&sort%5B%5D=a`) are two. The canonical forms of the last short query
 * strings are remembered: a hit then parses nothing.
 */
const cacheKeys = () => {
  const known = new Map<string, string>();
  return (ctx: Context) => {
    const { querystring } = ctx;
    if (!querystring) return ctx.path;
    let query = known.get(querystring);
    if (query === undefined) {
      query = canonical(ctx.query);
      if (querystring.length <= KNOWN_QUERY_LENGTH) {
        if (known.size >= KNOWN_QUERIES) known.delete(known.keys().next().value!);
        known.set(querystring, query);
      }
    }
    return `${ctx.path}?${query}`;
  };
};

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
  const keyOf = cacheKeys();
  // Services and the file configuration do not change once the app runs: looked up on the first request, not on each.
  let services: { cache: ResponseCacheService; versions: CacheVersionsService } | undefined;
  let anonymousControl: string | undefined;
  const cacheControl = () => {
    if (anonymousControl !== undefined) return anonymousControl;
    const { maxAge, sMaxAge, staleWhileRevalidate } = getService(strapi, 'settings').file().cache.http;
    if (maxAge === 0 && sMaxAge === 0 && staleWhileRevalidate === 0) return (anonymousControl = 'public, no-cache');
    let value = `public, max-age=${maxAge}`;
    if (sMaxAge > 0) value += `, s-maxage=${sMaxAge}`;
    if (staleWhileRevalidate > 0) value += `, stale-while-revalidate=${staleWhileRevalidate}`;
    return (anonymousControl = value);
  };

  /** Calls `release` once the response has finished or closed (at once if it already has). */
  const releaseWhenSent = (ctx: Context, release: () => void) => {
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      release();
    };
    ctx.res.once('finish', end);
    ctx.res.once('close', end);
    if (ctx.res.writableFinished || ctx.res.closed) end();
  };

  const send = async (ctx: Context, answer: CachedAnswer, control: string) => {
    ctx.set('ETag', answer.etag);
    ctx.set('Cache-Control', control);
    // A shared cache may give a `public` answer to a request with credentials unless told the answer depends on them.
    ctx.vary('Authorization');
    if (answer.encoding) ctx.vary('Accept-Encoding');
    if (notModified(ctx, answer.etag)) {
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    ctx.status = 200;
    if (answer.encoding && ctx.acceptsEncodings(answer.encoding, 'identity') !== answer.encoding) {
      // A client that does not take the compressed copy gets its text, held like a hit's until sent.
      const plain = await answer.plain!();
      if (plain.done) releaseWhenSent(ctx, plain.done);
      ctx.body = plain.body;
    } else {
      if (answer.encoding) ctx.set('Content-Encoding', answer.encoding);
      ctx.body = answer.body;
    }
    ctx.type = answer.contentType;
  };

  /**
   * Sends an answer whose body is the cache's own memory: held until the socket has written it (a slow client reads long
   * after this returns) and the decompression (if any) has read it; then `done` lets the range be reused.
   */
  const sendHeld = async (ctx: Context, answer: CachedAnswer, done: () => void, control: string) => {
    let holds = 2;
    const drop = () => {
      holds -= 1;
      if (holds === 0) done();
    };
    releaseWhenSent(ctx, drop);
    try {
      await send(ctx, answer, control);
    } finally {
      drop();
    }
  };

  /** A streamed answer's weak ETag: its URL and the versions read before it was computed (`sessions` versions no answer). */
  const streamEtag = (key: string, versions: Map<string, number>) =>
    `W/"${hash(`${key} ${[...versions].filter(([scope]) => scope !== 'sessions' && scope !== 'views').sort().join(' ')}`)}"`;

  /** A streamed 200: its ETag, then 304 (the stream dropped) or the stream. */
  const sendStream = (ctx: Context, etag: string, control: string) => {
    const stream = ctx.body as Readable;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', control);
    ctx.vary('Authorization');
    if (notModified(ctx, etag)) {
      stream.destroy();
      ctx.status = 304;
      ctx.body = null;
    }
  };

  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' || !ctx.path.startsWith(base)) return next();
    const anonymous = !ctx.get('authorization');
    services ??= { cache: getService(strapi, 'response-cache'), versions: getService(strapi, 'cache-versions') };
    const { cache } = services;
    const key = keyOf(ctx);
    let versions: Map<string, number> | undefined;

    // A streamed answer's ETag is made of the versions, read before it is computed, cache on or off.
    if ((anonymous && cache.enabled()) || ctx.path.startsWith(`${base}sitemap`)) {
      // Database unreachable: the request goes the normal way (and gets the answer an outage gets there).
      versions = await services.versions
        .read()
        .catch(() => undefined);
    }
    const entry = anonymous && cache.enabled() && versions ? cache.get(key, versions) : undefined;
    if (entry) {
      // A failed database call here (an outage) also sends the request the normal way.
      const answer = await (async () => {
        if (!(await cache.publicMay(entry.shared.profile.actions, versions!.get('permissions') ?? 0))) return undefined;
        return cache.answer(entry, readCounts(getService(strapi, 'settings').file().views.countBots, ctx.get('User-Agent')));
      })().catch(() => undefined);
      if (answer !== undefined) {
        cache.hit(entry.shared.profile.type);
        return answer.done ? sendHeld(ctx, answer, answer.done, cacheControl()) : send(ctx, answer, cacheControl());
      }
    }

    await next();

    if (ctx.response.get('Cache-Control')) return;
    const control = anonymous ? cacheControl() : 'private, no-cache';
    if (ctx.status === 301) {
      // An old slug's 301 (docs/redirects.md) is computed on every request, never kept; without Cache-Control a browser
      // would keep a permanent redirect for good, and the slug may be taken again by another document.
      ctx.set('Cache-Control', control);
      ctx.vary('Authorization');
      return;
    }
    if (ctx.status !== 200) return;
    const route = ctx.state.route as RouteState | undefined;
    const scope = route?.config?.auth?.scope;
    const profile = cache.profileOf(Array.isArray(scope) ? scope.map(String) : []);
    const cacheable =
      anonymous &&
      cache.enabled() &&
      versions !== undefined &&
      profile !== undefined &&
      !ctx.state.user &&
      !(ctx.state.auth as { credentials?: unknown } | undefined)?.credentials &&
      (route?.config?.policies ?? []).length === 0 &&
      (route?.config?.middlewares ?? []).length === 0;

    if (ctx.body instanceof Readable) {
      if (!versions) return;
      const etag = streamEtag(key, versions);
      sendStream(ctx, etag, control);
      if (cacheable && ctx.status === 200) {
        const source = ctx.body;
        const contentType = ctx.response.get('Content-Type');
        // The stream's errors reach the client's answer as before (koa listens on the body); the copy is then dropped.
        ctx.body = pipeline(source, cache.keepStream(key, versions, profile, etag, contentType), () => undefined);
        ctx.type = contentType;
      }
      return;
    }
    // An object (koa would write it), or text the controller wrote itself (deep trees as JSON: platform/json.ts; feeds).
    const written = typeof ctx.body === 'string' ? ctx.body : undefined;
    if (!isPlainObject(ctx.body) && written === undefined) return;
    const contentType = written === undefined ? 'application/json' : ctx.response.get('Content-Type') || 'application/json';
    // A big text (a 10,000-comment tree, written in slices) was work of its own: its ETag and encoding are another
    // few milliseconds, after the other requests had their turn.
    if (written !== undefined && written.length > BIG_TEXT) await yieldToEventLoop();
    const rendered = cache.render(written ?? (ctx.body as Record<string, unknown>), profile);
    // Kept: answered from its copy (the text is encoded once); not kept (or not cacheable): from the text.
    const kept = cacheable ? cache.store(key, versions!, profile, rendered, contentType) : undefined;
    if (kept?.done) return sendHeld(ctx, kept, kept.done, control);
    await send(ctx, { body: Buffer.from(rendered.text), etag: rendered.etag, contentType }, control);
  };
};

export default responseCache;
