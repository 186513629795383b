/**
 * The response cache's store (docs/caching.md): anonymous answers to GETs under /api/bag, in this process's memory,
 * bounded by `cache.maxBytes` (bytes of key and body), least recently used out first; hits and misses per type for
 * the admin page. Whether an entry may be served is decided by its versions (services/cache/cache-versions.ts).
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../get-service';

/** Where `views` sits in a cached body (cut out of `parts`): a detail's one document, or a list's rows by id. */
export type ViewSlots = { uid: string; kind: 'detail'; documentId: string } | { uid: string; kind: 'list'; ids: number[] };

export interface CacheEntry {
  key: string;
  /** The controller, e.g. `article`: the stats' type. */
  type: string;
  /** The Users & Permissions actions the route requires (the public role must still hold them). */
  actions: string[];
  /** Versions of every scope when the answer was computed. */
  versions: Map<string, number>;
  scopes: readonly string[];
  /**
   * The body's bytes; with `views`, the JSON around each count (`views.length + 1` parts). Buffers, not strings: kept
   * outside V8's heap, where an evicted entry's memory is reused by the next one, so the process's RSS follows
   * `cache.maxBytes` (strings that outlive a few collections pin V8 heap pages long after they are evicted).
   */
  parts: Buffer[];
  views?: ViewSlots;
  /** The ETag, when it does not depend on `views` (every answer but a list with counts). */
  etag?: string;
  /** A list with counts: the hash of its JSON without them, from which each answer's ETag is made with the counts. */
  partsHash?: string;
  /** The `Content-Type` it was sent with (JSON, or a feed's XML). */
  contentType: string;
  bytes: number;
}

interface TypeStats {
  hits: number;
  misses: number;
}

const responseCache = ({ strapi }: { strapi: Core.Strapi }) => {
  const entries = new Map<string, CacheEntry>();
  const stats = new Map<string, TypeStats>();
  let bytes = 0;
  let publicActions: { version: number; actions: Set<string> } | undefined;

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

  return {
    enabled: () => config().enabled,

    /** The entry for `key` if it was computed under the current `versions` of its scopes (the stale one goes). */
    get(key: string, versions: Map<string, number>): CacheEntry | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.scopes.some((scope) => entry.versions.get(scope) !== versions.get(scope))) {
        remove(entry);
        return undefined;
      }
      // Most recently used last: a Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },

    set(entry: CacheEntry) {
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
    },

    hit(type: string) {
      statsOf(type).hits += 1;
    },
    miss(type: string) {
      statsOf(type).misses += 1;
    },

    /** Whether the Public role holds every one of `actions`, as of `permissionsVersion` (re-read when it moved). */
    async publicMay(actions: string[], permissionsVersion: number): Promise<boolean> {
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
      bytes = 0;
      publicActions = undefined;
    },
  };
};

export type ResponseCacheService = ReturnType<typeof responseCache>;
export default responseCache;
