/**
 * The response cache (docs/caching.md): anonymous answers to GETs under /api/bag, in this process's memory, bounded by
 * `cache.maxBytes` (what each entry really costs, below), least recently used out first; hits and misses per type
 * for the admin page. It turns an answer into an entry (its bytes, its ETag, where its `views` counts go) and an entry
 * back into an answer with today's counts; whether an entry may be served is decided by its versions
 * (services/cache/cache-versions.ts). No HTTP here: the middleware asks and answers.
 */
import crypto from 'crypto';
import { Transform } from 'stream';
import zlib from 'zlib';
import type { Core } from '@strapi/strapi';
import type { CacheScope } from '../../domain/cache-scopes';
import { PLUGIN_ID, uid } from '../../domain/plugin-id';
import { viewCounts } from '../../repositories/cache/views';
import { getService } from '../get-service';

/**
 * Memory an entry costs besides its key's and its body's bytes: its own object, its slot in the LRU `Map`, the
 * `Buffer` object around its body, the ETag string, the key's string header. Measured with
 * scripts/cache-entry-cost.mjs (V8 heap and external memory per entry after a full collection, small search answers:
 * 525 bytes each, 406 beyond key and body; before entries shared their common parts, 810), rounded up. What entries have in common (the route's actions and scopes, the
 * versions they were computed under, the content type) is one shared object, not a copy per entry.
 */
export const ENTRY_OVERHEAD_BYTES = 448;
/** A cached list's ids (one array slot each) and a detail's document id (a string with its header). */
const LIST_ID_BYTES = 8;
const DETAIL_VIEWS_BYTES = 96;

/** What the cache knows of a route: its stats type, the actions the Public role must hold, what its answers show. */
export interface CacheProfile {
  /** The stats' type (the controller, e.g. `article`). */
  type: string;
  /** The Users & Permissions actions the route requires (the Public role must still hold them on a hit). */
  actions: readonly string[];
  /** Which writes make its answers stale. */
  scopes: readonly CacheScope[];
  /** Where its answers carry `views` (never served from memory): an article's or page's detail, or a list of them. */
  counted?: { uid: string; kind: 'detail' | 'list' };
}

/** A route's cache behaviour as its route module declares it (routes/types.ts), by its handler `controller.action`. */
export interface CacheDeclaration {
  handler: string;
  cache: { scopes: readonly CacheScope[]; views?: { type: string; kind: 'detail' | 'list' } };
}

/** Where `views` sits in a cached body: a detail's one document, or a list's rows by id. */
export type ViewSlots = { uid: string; kind: 'detail'; documentId: string } | { uid: string; kind: 'list'; ids: number[] };

/** The versions of a profile's scopes an answer was computed under; one object shared by every entry that has them. */
interface Stamp {
  scopes: readonly CacheScope[];
  versions: readonly number[];
}

interface Shared {
  profile: CacheProfile;
  contentType: string;
  stamp: Stamp;
}

export interface CacheEntry {
  key: string;
  shared: Shared;
  /** The body's bytes, outside V8's heap (see the bound in docs/caching.md); with `views`, the counts cut out. */
  body: Buffer;
  /** With `views`: the offsets in `body` where each count goes. */
  cuts: number[] | undefined;
  views: ViewSlots | undefined;
  /** The ETag; for a list with counts, the hash of its JSON without them (each answer's ETag adds the counts). */
  etag: string;
  /** `gzip`: `body` is compressed (the sitemap). */
  encoding: 'gzip' | undefined;
  bytes: number;
}

/** An answer to send: its bytes, its ETag and content type. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
  encoding?: 'gzip';
}

const TOKEN = `bag-views-${crypto.randomBytes(9).toString('hex')}`;
const QUOTED_TOKEN = `"${TOKEN}"`;

const hash = (text: string | Buffer) => crypto.createHash('sha1').update(text).digest('base64url');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Cuts the `views` counts out of an article's or page's answer: the JSON around them, and where they belong. */
const splitViews = (counted: CacheProfile['counted'], body: Record<string, unknown>): { parts: string[]; views?: ViewSlots } => {
  const whole = () => ({ parts: [JSON.stringify(body)] });
  if (!counted) return whole();
  const { uid } = counted;
  const { data } = body;
  if (counted.kind === 'detail' && isPlainObject(data) && typeof data.views === 'number' && typeof data.documentId === 'string') {
    const parts = JSON.stringify({ ...body, data: { ...data, views: TOKEN } }).split(QUOTED_TOKEN);
    return parts.length === 2 ? { parts, views: { uid, kind: 'detail', documentId: data.documentId } } : whole();
  }
  if (counted.kind === 'list' && Array.isArray(data)) {
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
const joinBytes = (body: Buffer, cuts: number[] | undefined, counts: number[]) => {
  if (!cuts) return body;
  const chunks: Buffer[] = [];
  let from = 0;
  cuts.forEach((cut, i) => {
    chunks.push(body.subarray(from, cut), Buffer.from(String(counts[i])));
    from = cut;
  });
  chunks.push(body.subarray(from));
  return Buffer.concat(chunks);
};

/** A list's strong ETag: its JSON without the counts (hashed once, when stored) and the counts, so the bytes. */
const listEtag = (partsHash: string, counts: number[]) => `"${hash(`${partsHash} ${counts.join(',')}`)}"`;

/** The answer as written, before it is stored: its text, its ETag, and what an entry needs. */
export interface Rendered {
  text: string;
  etag: string;
  parts: string[];
  views: ViewSlots | undefined;
  /** A list with counts: the hash of its JSON without them. */
  partsHash: string | undefined;
}

const responseCache = ({ strapi }: { strapi: Core.Strapi }) => {
  const entries = new Map<string, CacheEntry>();
  const stats = new Map<string, { hits: number; misses: number }>();
  let bytes = 0;
  let publicActions: { version: number; actions: Set<string> } | undefined;
  /** The declared routes' profiles by Users & Permissions action: one object per route, shared by its entries. */
  const profiles = new Map<string, CacheProfile>();
  /** One `Shared` per profile, content type and versions: the newest only (older ones live as long as their entries). */
  const shared = new Map<string, Shared>();

  const statsOf = (type: string) => {
    let found = stats.get(type);
    if (!found) stats.set(type, (found = { hits: 0, misses: 0 }));
    return found;
  };
  const remove = (entry: CacheEntry) => {
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    bytes -= entry.bytes;
  };
  const config = () => getService(strapi, 'settings').file().cache;

  const sharedOf = (profile: CacheProfile, contentType: string, versions: Map<string, number>): Shared => {
    const id = `${profile.type}\n${profile.actions.join(',')}\n${profile.scopes.join(',')}\n${contentType}`;
    const found = shared.get(id);
    if (found?.profile === profile && found.stamp.scopes.every((scope, i) => versions.get(scope) === found.stamp.versions[i])) {
      return found;
    }
    const made = {
      profile,
      contentType,
      stamp: { scopes: profile.scopes, versions: profile.scopes.map((scope) => versions.get(scope) ?? 0) },
    };
    shared.set(id, made);
    return made;
  };

  const put = (entry: CacheEntry) => {
    const maxBytes = config().maxBytes;
    if (entry.bytes > maxBytes) return;
    const old = entries.get(entry.key);
    if (old) remove(old);
    entries.set(entry.key, entry);
    bytes += entry.bytes;
    for (const oldest of entries.values()) {
      if (bytes <= maxBytes) break;
      remove(oldest);
    }
  };

  const costOf = (key: string, body: Buffer, views: ViewSlots | undefined) =>
    ENTRY_OVERHEAD_BYTES +
    Buffer.byteLength(key) +
    body.length +
    (views === undefined ? 0 : views.kind === 'list' ? LIST_ID_BYTES * (views.ids.length + 1) : DETAIL_VIEWS_BYTES);

  return {
    enabled: () => config().enabled,

    /** The routes whose answers may be kept (bootstrap passes the route modules' declarations). */
    declare(declarations: CacheDeclaration[]) {
      for (const { handler, cache } of declarations) {
        const action = `plugin::${PLUGIN_ID}.${handler}`;
        const { views } = cache;
        profiles.set(action, {
          type: handler.split('.')[0],
          actions: [action],
          scopes: cache.scopes,
          ...(views ? { counted: { uid: uid(views.type), kind: views.kind } } : {}),
        });
      }
    },

    /** The profile of the route that requires exactly these actions, if it declared one. */
    profileOf(actions: readonly string[]): CacheProfile | undefined {
      return actions.length === 1 ? profiles.get(actions[0]) : undefined;
    },

    /** The entry for `key` if it was computed under the current `versions` of its scopes (the stale one goes). */
    get(key: string, versions: Map<string, number>): CacheEntry | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const { stamp } = entry.shared;
      if (stamp.scopes.some((scope, i) => stamp.versions[i] !== versions.get(scope))) {
        remove(entry);
        return undefined;
      }
      // Most recently used last: a Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },

    /**
     * The text and ETag of a JSON answer (an object koa would write, or text a controller wrote): strong over its
     * bytes; weak and without `views` for a detail that shows them; for a list with counts, over its JSON without
     * them and the counts.
     */
    render(body: Record<string, unknown> | string, profile: CacheProfile | undefined): Rendered {
      const { parts, views } = typeof body === 'string' ? { parts: [body] } : splitViews(profile?.counted, body);
      const data = typeof body === 'string' ? undefined : body.data;
      const counts = views?.kind === 'detail' ? [(data as { views: number }).views] : [];
      if (views?.kind === 'list') {
        const byId = new Map((data as { id?: number; views?: number }[]).map((item) => [item.id, item.views]));
        for (const id of views.ids) counts.push(byId.get(id) as number);
      }
      const text = join(parts, counts);
      if (views?.kind === 'list') {
        const partsHash = hash(parts.join(TOKEN));
        return { text, etag: listEtag(partsHash, counts), parts, views, partsHash };
      }
      const etag = views?.kind === 'detail' ? `W/"${hash(parts.join(TOKEN))}"` : `"${hash(text)}"`;
      return { text, etag, parts, views, partsHash: undefined };
    },

    /** Keeps a rendered answer for `key`, computed under `versions`. */
    store(key: string, versions: Map<string, number>, profile: CacheProfile, rendered: Rendered, contentType: string) {
      statsOf(profile.type).misses += 1;
      const stored = rendered.parts.map((part) => Buffer.from(part));
      const body = stored.length === 1 ? stored[0] : Buffer.concat(stored);
      let cuts: number[] | undefined;
      if (stored.length > 1) {
        cuts = [];
        let offset = 0;
        for (const part of stored.slice(0, -1)) cuts.push((offset += part.length));
      }
      const { views } = rendered;
      put({
        key,
        shared: sharedOf(profile, contentType, versions),
        body,
        cuts,
        views,
        etag: rendered.partsHash ?? rendered.etag,
        encoding: undefined,
        bytes: costOf(key, body, views),
      });
    },

    /**
     * A streamed answer (the sitemap) passes through the returned stream to the client and is kept compressed once it
     * has ended: not kept if the stream fails or is dropped, or if it grows past the bound.
     */
    keepStream(key: string, versions: Map<string, number>, profile: CacheProfile, etag: string, contentType: string): Transform {
      statsOf(profile.type).misses += 1;
      const stamp = sharedOf(profile, contentType, versions);
      const limit = config().maxBytes - ENTRY_OVERHEAD_BYTES - Buffer.byteLength(key);
      const gzip = zlib.createGzip();
      const compressed: Buffer[] = [];
      let size = 0;
      let dropped = false;
      const drop = () => {
        dropped = true;
        compressed.length = 0;
        gzip.destroy();
      };
      gzip.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) drop();
        else compressed.push(chunk);
      });
      gzip.on('end', () => {
        if (dropped) return;
        const body = Buffer.concat(compressed);
        put({ key, shared: stamp, body, cuts: undefined, views: undefined, etag, encoding: 'gzip', bytes: costOf(key, body, undefined) });
      });
      gzip.on('error', () => undefined);
      return new Transform({
        transform(chunk: Buffer | string, _encoding, callback) {
          if (!dropped) gzip.write(chunk);
          callback(null, chunk);
        },
        // The answer ends once its copy is kept, so the next request finds it.
        flush(callback) {
          if (dropped) return callback();
          gzip.once('close', () => callback());
          gzip.end();
        },
        destroy(error, callback) {
          // Dropped by the client or failed: the copy would be incomplete.
          if (!gzip.writableEnded) drop();
          callback(error);
        },
      });
    },

    /** The answer from `entry` with today's view counts; undefined when a counted row is gone (then computed anew). */
    async answer(entry: CacheEntry): Promise<CachedAnswer | undefined> {
      const { views, body, cuts, etag } = entry;
      const { contentType } = entry.shared;
      if (entry.encoding) return { body, etag, contentType, encoding: entry.encoding };
      if (!views) return { body, etag, contentType };
      if (views.kind === 'detail') {
        const count = await getService(strapi, 'views').increment(views.uid as never, views.documentId);
        return count === null ? undefined : { body: joinBytes(body, cuts, [count]), etag, contentType };
      }
      const rows = await viewCounts(strapi, views.uid, views.ids);
      if (views.ids.some((id) => !rows.has(id))) return undefined;
      const counts = views.ids.map((id) => rows.get(id)!);
      return { body: joinBytes(body, cuts, counts), etag: listEtag(etag, counts), contentType };
    },

    hit(type: string) {
      statsOf(type).hits += 1;
    },

    /** Whether the Public role holds every one of `actions`, as of `permissionsVersion` (re-read when it moved). */
    async publicMay(actions: readonly string[], permissionsVersion: number): Promise<boolean> {
      if (publicActions?.version !== permissionsVersion) {
        const rows = (await strapi.db
          .query('plugin::users-permissions.permission')
          .findMany({ where: { role: { type: 'public' } }, select: ['action'] })) as { action: string }[];
        publicActions = { version: permissionsVersion, actions: new Set(rows.map((row) => row.action)) };
      }
      const allowed = publicActions.actions;
      return actions.every((action) => allowed.has(action));
    },

    stats() {
      const types = [...stats.entries()]
        .map(([type, { hits, misses }]) => ({ type, hits, misses, hitRatio: hits + misses === 0 ? 0 : hits / (hits + misses) }))
        .sort((a, b) => a.type.localeCompare(b.type));
      return { enabled: config().enabled, maxBytes: config().maxBytes, bytes, entries: entries.size, types };
    },

    clear() {
      entries.clear();
      stats.clear();
      shared.clear();
      bytes = 0;
      publicActions = undefined;
    },
  };
};

export type ResponseCacheService = ReturnType<typeof responseCache>;
export default responseCache;
