/**
 * The response cache (docs/caching.md): anonymous answers to GETs under /api/bag, in this process's memory, bounded by
 * `cache.maxBytes` (what each entry really costs: services/cache/cache-entry.ts), least recently used out first; hits
 * and misses per type for the admin page. Entries are made and turned back into answers with today's counts by
 * cache-entry.ts; whether an entry may be served is decided by its versions (services/cache/cache-versions.ts). No
 * HTTP here: the middleware asks and answers.
 */
import { Transform } from 'stream';
import zlib from 'zlib';
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID, uid } from '../../domain/plugin-id';
import { viewCounts } from '../../repositories/cache/views';
import { getService } from '../get-service';
import { sharedReads } from './shared-reads';
import {
  costOf,
  ENTRY_OVERHEAD_BYTES,
  entryBody,
  listEtag,
  recount,
  renderAnswer,
  sameCounts,
  type CacheDeclaration,
  type CacheEntry,
  type CachedAnswer,
  type CacheProfile,
  type Rendered,
  type Shared,
} from './cache-entry';

export type { CacheDeclaration, CacheEntry, CachedAnswer, CacheProfile, Rendered } from './cache-entry';

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
  // The file configuration is read once (it does not change while the app runs), not at every hit.
  let fileConfig: ReturnType<ReturnType<typeof getService<'settings'>>['file']>['cache'] | undefined;
  const config = () => (fileConfig ??= getService(strapi, 'settings').file().cache);
  let viewsService: ReturnType<typeof getService<'views'>> | undefined;
  /** A list's counts, read once for the concurrent hits of one entry (each given counts read after it came). */
  const countReads = sharedReads<Map<number, number>>();

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

  /**
   * Makes `entry` show `counts`: unchanged when they are the ones it shows (a list read again before any of its rows
   * was), else new bytes and, for a list, a new ETag; what the entry costs follows its bytes.
   */
  const show = (entry: CacheEntry, counts: number[]) => {
    if (!entry.cuts || !entry.counts || sameCounts(entry.counts, counts)) return;
    const { body, cuts } = recount(entry.body, entry.cuts, entry.counts, counts);
    const grown = body.length - entry.body.length;
    entry.body = body;
    entry.cuts = cuts;
    entry.counts = counts;
    if (entry.partsHash !== undefined) entry.etag = listEtag(entry.partsHash, counts);
    entry.bytes += grown;
    if (entries.get(entry.key) === entry) bytes += grown;
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

    /** The text and ETag of an answer (see renderAnswer). */
    render: renderAnswer,

    /** Keeps a rendered answer for `key`, computed under `versions`. */
    store(key: string, versions: Map<string, number>, profile: CacheProfile, rendered: Rendered, contentType: string) {
      statsOf(profile.type).misses += 1;
      const { body, cuts } = entryBody(rendered);
      const { views } = rendered;
      put({
        key,
        shared: sharedOf(profile, contentType, versions),
        body,
        cuts,
        counts: cuts ? rendered.counts : undefined,
        views,
        etag: rendered.etag,
        partsHash: rendered.partsHash,
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
        put({
          key,
          shared: stamp,
          body,
          cuts: undefined,
          counts: undefined,
          views: undefined,
          etag,
          partsHash: undefined,
          encoding: 'gzip',
          bytes: costOf(key, body, undefined),
        });
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
      const { views } = entry;
      const { contentType } = entry.shared;
      if (entry.encoding) return { body: entry.body, etag: entry.etag, contentType, encoding: entry.encoding };
      if (!views) return { body: entry.body, etag: entry.etag, contentType };
      let counts: number[];
      if (views.kind === 'detail') {
        const count = await (viewsService ??= getService(strapi, 'views')).increment(views.uid as never, views.documentId);
        if (count === null) return undefined;
        counts = [count];
      } else {
        const rows = await countReads(`${views.uid}\n${views.ids.join(',')}`, () => viewCounts(strapi, views.uid, views.ids));
        if (views.ids.some((id) => !rows.has(id))) return undefined;
        counts = views.ids.map((id) => rows.get(id)!);
      }
      show(entry, counts);
      return { body: entry.body, etag: entry.etag, contentType };
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
