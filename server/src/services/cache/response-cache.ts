/**
 * The response cache (docs/caching.md): anonymous answers to GETs under /api/bag, in this process's memory, bounded by
 * `cache.maxBytes` (the bodies' ranges in one region of that size, services/cache/slab.ts, and what each entry costs
 * beside its body: services/cache/cache-entry.ts), least recently used out first; hits
 * and misses per type for the admin page. Entries are made and turned back into answers with today's counts by
 * cache-entry.ts; whether an entry may be served is decided by its versions (services/cache/cache-versions.ts). No
 * HTTP here: the middleware asks and answers.
 */
import type { Transform } from 'stream';
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID, uid } from '../../domain/plugin-id';
import { viewCounts } from '../../repositories/cache/views';
import { getService } from '../get-service';
import { compressedCopy } from './compressed-copy';
import { publicActions } from './public-actions';
import { sharedReads } from './shared-reads';
import {
  costOf,
  entryLayout,
  listEtag,
  recount,
  recountedLength,
  renderAnswer,
  sameCounts,
  type CacheDeclaration,
  type CacheEntry,
  type CachedAnswer,
  type CacheProfile,
  type Copy,
  type Rendered,
  type Shared,
} from './cache-entry';
import { Slab, type Range } from './slab';

export type { CacheDeclaration, CacheEntry, CachedAnswer, CacheProfile, Rendered } from './cache-entry';

const responseCache = ({ strapi }: { strapi: Core.Strapi }) => {
  const entries = new Map<string, CacheEntry>();
  const stats = new Map<string, { hits: number; misses: number }>();
  /** What the entries cost beside their bodies (their bodies' ranges are counted by the region). */
  let entryBytes = 0;
  /** The bodies' region: allocated at the first answer kept (the cache is on), never grown. */
  let slab: Slab | undefined;
  const publicRole = publicActions(strapi);
  /** The declared routes' profiles by Users & Permissions action: one object per route, shared by its entries. */
  const profiles = new Map<string, CacheProfile>();
  /** One `Shared` per profile, content type and versions: the newest only (older ones live as long as their entries). */
  const shared = new Map<string, Shared>();

  const statsOf = (type: string) => {
    let found = stats.get(type);
    if (!found) stats.set(type, (found = { hits: 0, misses: 0 }));
    return found;
  };
  /** What counts against `cache.maxBytes`: the region's bytes in use (pinned ranges of gone entries too) and the rest. */
  const bytesUsed = () => entryBytes + (slab?.used ?? 0);
  const remove = (entry: CacheEntry) => {
    if (entries.get(entry.key) !== entry) return;
    entries.delete(entry.key);
    entryBytes -= entry.bytes;
    // Freed now, or once the last answer still sending it has finished.
    slab!.release(entry.copy.range);
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
   * A range of `length` bytes for a body whose entry costs `cost` besides it: the least recently used entries go (never
   * `keep`) until both fit the bound and the region has a free range that long. Undefined when it can never fit: larger
   * than the bound, or the region still too fragmented (by ranges answers are still sending) with nothing left to evict.
   */
  const place = (length: number, cost: number, keep?: CacheEntry): Range | undefined => {
    const { maxBytes } = config();
    const size = Slab.sizeOf(length);
    if (size + cost > maxBytes) return undefined;
    // The region, once; when the system refuses that much memory, an empty one (nothing is kept) and a warning.
    const region = (slab ??= Slab.orEmpty(maxBytes, (error) =>
      strapi.log.warn(`[${PLUGIN_ID}] response cache off: no ${maxBytes} bytes for its region (${error.message})`),
    ));
    for (;;) {
      if (bytesUsed() + size + cost <= maxBytes) {
        const range = region.allocate(length);
        if (range) return range;
      }
      let oldest: CacheEntry | undefined;
      for (const entry of entries.values()) {
        if (entry !== keep) {
          oldest = entry;
          break;
        }
      }
      if (!oldest) return undefined;
      remove(oldest);
    }
  };

  /** Keeps an entry whose body `write` puts into a range of `length` bytes (replacing `key`'s entry); not if it cannot fit. */
  const put = (
    entry: Omit<CacheEntry, 'copy'>,
    length: number,
    write: (into: Buffer) => void,
    copy: Omit<Copy, 'range' | 'body'>,
  ) => {
    if (Slab.sizeOf(length) + entry.bytes > config().maxBytes) return;
    const old = entries.get(entry.key);
    if (old) remove(old);
    const range = place(length, entry.bytes);
    if (!range) return;
    const body = slab!.view(range, length);
    write(body);
    // Written out field by field, not spread: a spread's clone gave every entry its own hidden class (~450 bytes each).
    const kept: CacheEntry = {
      key: entry.key,
      shared: entry.shared,
      copy: { range, body, cuts: copy.cuts, counts: copy.counts, etag: copy.etag },
      views: entry.views,
      partsHash: entry.partsHash,
      encoding: entry.encoding,
      bytes: entry.bytes,
    };
    entries.set(kept.key, kept);
    entryBytes += kept.bytes;
    return kept;
  };

  /** A pinned copy's release, once, however many times it is called. */
  const unpinner = (range: Range) => {
    let pinned = true;
    return () => {
      if (!pinned) return;
      pinned = false;
      slab!.unpin(range);
    };
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

    /**
     * Keeps a rendered answer for `key`, computed under `versions`, and gives it back as a pinned view of its copy
     * (answered as a hit is: `done` once the response has finished or closed); undefined when it could not be kept.
     */
    store(key: string, versions: Map<string, number>, profile: CacheProfile, rendered: Rendered, contentType: string) {
      statsOf(profile.type).misses += 1;
      const { length, cuts } = entryLayout(rendered);
      const { views } = rendered;
      const kept = put(
        {
          key,
          shared: sharedOf(profile, contentType, versions),
          views,
          partsHash: rendered.partsHash,
          encoding: undefined,
          bytes: costOf(key, views),
        },
        length,
        (into) => into.write(rendered.text),
        { cuts, counts: cuts ? rendered.counts : undefined, etag: rendered.etag },
      );
      if (!kept) return undefined;
      const { range, body, etag } = kept.copy;
      slab!.pin(range);
      return { body, etag, contentType, done: unpinner(range) } satisfies CachedAnswer;
    },

    /**
     * A streamed answer (the sitemap) passes through the returned stream to the client and is kept compressed once it
     * has ended: not kept if the stream fails or is dropped, or if it grows past the bound.
     */
    keepStream(key: string, versions: Map<string, number>, profile: CacheProfile, etag: string, contentType: string): Transform {
      statsOf(profile.type).misses += 1;
      const stamp = sharedOf(profile, contentType, versions);
      const limit = config().maxBytes - costOf(key, undefined);
      return compressedCopy(limit, (chunks, size) =>
        put(
          { key, shared: stamp, views: undefined, partsHash: undefined, encoding: 'gzip', bytes: costOf(key, undefined) },
          size,
          (into) => {
            let at = 0;
            for (const chunk of chunks) at += chunk.copy(into, at);
          },
          { cuts: undefined, counts: undefined, etag },
        ),
      );
    },

    /**
     * The answer from `entry` with today's view counts; undefined when a counted row is gone (then computed anew). Its
     * body may be a pinned view of the region: the caller calls `done` once the response has finished or closed.
     */
    async answer(entry: CacheEntry): Promise<CachedAnswer | undefined> {
      const { views } = entry;
      const { contentType } = entry.shared;
      // Pinned before anything is awaited: evicted or replaced meanwhile, its bytes stay as they are until released.
      const copy = entry.copy;
      slab!.pin(copy.range);
      const done = unpinner(copy.range);
      if (entry.encoding) return { body: copy.body, etag: copy.etag, contentType, encoding: entry.encoding, done };
      if (!views || !copy.cuts || !copy.counts) return { body: copy.body, etag: copy.etag, contentType, done };
      let counts: number[];
      try {
        if (views.kind === 'detail') {
          const count = await (viewsService ??= getService(strapi, 'views')).increment(views.uid as never, views.documentId);
          if (count === null) return void done();
          counts = [count];
        } else {
          const rows = await countReads(`${views.uid}\n${views.ids.join(',')}`, () => viewCounts(strapi, views.uid, views.ids));
          if (views.ids.some((id) => !rows.has(id))) return void done();
          counts = views.ids.map((id) => rows.get(id)!);
        }
      } catch (error) {
        done();
        throw error;
      }
      if (sameCounts(copy.counts, counts)) return { body: copy.body, etag: copy.etag, contentType, done };
      const length = recountedLength(copy.body.length, copy.counts, counts);
      // A detail's count moves at every read: its bytes are this answer's alone, an ordinary short-lived buffer. A
      // list's counts stay until one of its rows is read: the new bytes are kept in the region for the next hits, if
      // the entry is still the one kept and they fit (the rewrite is the one copy either way).
      const range =
        views.kind === 'list' && entry.copy === copy && entries.get(entry.key) === entry ? place(length, 0, entry) : undefined;
      // place() may have evicted entries, never this one; `copy` is still pinned.
      const out = range ? slab!.view(range, length) : undefined;
      const { body, cuts } = recount(copy.body, copy.cuts, copy.counts, counts, out);
      const etag = entry.partsHash !== undefined ? listEtag(entry.partsHash, counts) : copy.etag;
      done();
      if (!range) return { body, etag, contentType };
      slab!.release(copy.range);
      entry.copy = { range, body, cuts, counts, etag };
      slab!.pin(range);
      return { body, etag, contentType, done: unpinner(range) };
    },

    hit(type: string) {
      statsOf(type).hits += 1;
    },

    /** Whether the Public role holds every one of `actions`, as of `permissionsVersion` (re-read when it moved). */
    publicMay: (actions: readonly string[], permissionsVersion: number) => publicRole.may(actions, permissionsVersion),

    stats() {
      const types = [...stats.entries()]
        .map(([type, { hits, misses }]) => ({ type, hits, misses, hitRatio: hits + misses === 0 ? 0 : hits / (hits + misses) }))
        .sort((a, b) => a.type.localeCompare(b.type));
      return { enabled: config().enabled, maxBytes: config().maxBytes, bytes: bytesUsed(), entries: entries.size, types };
    },

    /** The region's bytes in use (the bodies' ranges, pinned ones of gone entries too); 0 before the first entry. */
    regionBytes() {
      return slab?.used ?? 0;
    },

    clear() {
      for (const entry of [...entries.values()]) remove(entry);
      stats.clear();
      shared.clear();
      publicRole.forget();
    },
  };
};

export type ResponseCacheService = ReturnType<typeof responseCache>;
export default responseCache;
