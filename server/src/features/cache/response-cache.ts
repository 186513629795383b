/**
 * The response cache (docs/caching.md): anonymous answers to GETs under /api/bag, in this process's memory, bounded by
 * `cache.maxBytes`: keys, ETags and bodies in one region of that size (slab.ts), the entries in one table of typed
 * arrays (entry-table.ts), least recently used out first. Entries are made and turned back into answers with today's
 * counts by cache-entry.ts; whether one may be served is decided by its versions (cache-versions.ts). No HTTP here.
 */
import type { Transform } from 'stream';
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import { gunzipKept } from './gunzip';
import { cacheProfiles } from './cache-profiles';
import { compressedCopy } from './compressed-copy';
import { publicActions } from './public-actions';
import { todaysCounts } from './todays-counts';
import {
  costOf,
  entryLayout,
  listEtag,
  recount,
  recountedLength,
  renderAnswer,
  sameCounts,
  type CacheEntry,
  type CachedAnswer,
  type CacheProfile,
  type PlainCopy,
  type Counted,
  type Rendered,
  type Shared,
} from './cache-entry';
import { EntryTable, keyHash } from './entry-table';
import { HitStats } from './hit-stats';
import { SharedStamps } from './shared-stamps';
import { Slab } from './slab';

export type { CacheDeclaration, CacheEntry, CachedAnswer, CacheProfile, Rendered } from './cache-entry';

/** An entry's flags in the table: its body is compressed (gzip, the sitemap). */
const GZIP = 1;

const responseCache = ({ strapi }: { strapi: Core.Strapi }) => {
  const stats = new HitStats();
  /** What the entries cost beside their ranges (the ranges are counted by the region). */
  let entryBytes = 0;
  /** The region (keys, ETags and bodies) and the entries' table: made at the first answer kept (the cache is on). */
  let slab: Slab | undefined;
  let table: EntryTable | undefined;
  /** The entries whose bodies show `views`, by slot (few: article and page lists and details). */
  let counted = new Map<number, Counted>();
  const publicRole = publicActions(strapi);
  const profiles = cacheProfiles();
  /** What the entries have in common (their route's profile, content type and versions), by small id. */
  const stamps = new SharedStamps();

  /** What counts against `cache.maxBytes`: the region's bytes in use (pinned ranges of gone entries too) and the rest. */
  const bytesUsed = () => entryBytes + (slab?.used ?? 0);
  /** A slot's range in the region: its key, its ETag, its body. */
  const rangeLength = (slot: number) => table!.keyLength[slot] + table!.etagLength[slot] + table!.bodyLength[slot];
  const remove = (slot: number) => {
    const t = table!;
    entryBytes -= t.cost[slot];
    // Freed now, or once the last answer still sending it has finished.
    slab!.release(t.offset[slot], Slab.sizeOf(rangeLength(slot)));
    stamps.drop(t.shared[slot]);
    counted.delete(slot);
    t.remove(slot);
  };
  // The file configuration is read once (it does not change while the app runs), not at every hit.
  let fileConfig: ReturnType<ReturnType<typeof getService<'settings'>>['file']>['cache'] | undefined;
  const config = () => (fileConfig ??= getService(strapi, 'settings').file().cache);
  const countsOf = todaysCounts(strapi);

  /**
   * The offset of a range of `length` bytes for an entry that costs `cost` besides it: the least recently used
   * entries go (never the slot `keep`) until both fit the bound and the region has a free range that long. -1 when it
   * can never fit: larger than the bound, or the region still too fragmented (by ranges answers are still sending)
   * with nothing left to evict.
   */
  const place = (length: number, cost: number, keep = -1): number => {
    const { maxBytes } = config();
    const size = Slab.sizeOf(length);
    if (size + cost > maxBytes) return -1;
    for (;;) {
      if (bytesUsed() + size + cost <= maxBytes) {
        const offset = slab!.allocate(length);
        if (offset >= 0) return offset;
      }
      const oldest = table!.oldest(keep);
      if (oldest < 0) return -1;
      remove(oldest);
    }
  };

  /**
   * Keeps an entry for `key` (replacing its entry) whose body `write` puts into `bodyLength` bytes of the region, after
   * its key and ETag: its slot, or -1 when it cannot fit (not kept).
   */
  const put = (
    key: string,
    stamp: Shared,
    etag: string,
    bodyLength: number,
    write: (into: Buffer) => void,
    views: Counted | undefined,
    flags: number,
  ) => {
    const keyLength = Buffer.byteLength(key);
    const length = keyLength + etag.length + bodyLength;
    const cost = costOf(views?.views);
    const { maxBytes } = config();
    // Checked before the key's entry is replaced. Not kept under a stamp replaced while its answer was made (a stream).
    if (Slab.sizeOf(length) + cost > maxBytes || etag.length > 0xffff || !stamps.live(stamp)) return -1;
    // The region, once; when the system refuses that much memory, an empty one (nothing is kept) and a warning.
    slab ??= Slab.orEmpty(maxBytes, (error) =>
      strapi.log.warn(`[${PLUGIN_ID}] response cache off: no ${maxBytes} bytes for its region (${error.message})`),
    );
    table ??= new EntryTable(slab.region);
    if (table.sparse) {
      const moved = new Map<number, Counted>();
      table.shrink((from, to) => {
        const found = counted.get(from);
        if (found) moved.set(to, found);
      });
      counted = moved;
    }
    const hash = keyHash(key);
    const old = table.find(key, hash);
    if (old >= 0) remove(old);
    const offset = place(length, cost);
    if (offset < 0) return -1;
    const { region } = slab;
    region.write(key, offset, keyLength, 'utf8');
    region.write(etag, offset + keyLength, 'latin1');
    const bodyAt = offset + keyLength + etag.length;
    write(region.subarray(bodyAt, bodyAt + bodyLength));
    const slot = table.add({ hash, offset, keyLength, etagLength: etag.length, bodyLength, cost, shared: stamp.id, flags });
    stamps.hold(stamp);
    entryBytes += cost;
    if (views) counted.set(slot, views);
    return slot;
  };

  /** A slot's body: a view of the region, pinned (an answer is written from it) until `done`. */
  const heldBody = (slot: number) => {
    const t = table!;
    const offset = t.offset[slot];
    const bodyAt = offset + t.keyLength[slot] + t.etagLength[slot];
    return { body: slab!.view(bodyAt, t.bodyLength[slot]), done: slab!.hold(offset) };
  };

  /**
   * A kept gzip copy decompressed, for a client without gzip: from the region when an earlier such client had it
   * decompressed under the same versions (kept beside it under `key` and a newline, which no request's key ends
   * with), else decompressed now and kept so for the next one, if it fits.
   */
  const plainCopy = async (key: string, entry: CacheEntry, compressed: Buffer, etag: string): Promise<PlainCopy> => {
    const t = table!;
    const plainKey = `${key}\n`;
    const found = t.find(plainKey, keyHash(plainKey));
    if (found >= 0 && t.shared[found] === entry.shared.id) {
      t.touch(found);
      return heldBody(found);
    }
    const body = await gunzipKept(compressed);
    // Only beside the copy it came from: evicted or replaced meanwhile, its versions may be gone.
    if (t === table && t.holds(entry.slot, entry.serial)) {
      put(plainKey, entry.shared, etag, body.length, (into) => body.copy(into), undefined, 0);
    }
    return { body };
  };

  return {
    enabled: () => config().enabled,

    /** The routes whose answers may be kept (cache-profiles.ts), and the profile of the one a request went to. */
    declare: profiles.declare,
    profileOf: profiles.profileOf,

    /** The entry for `key` if it was computed under the current `versions` of its scopes (the stale one goes). */
    get(key: string, versions: Map<string, number>): CacheEntry | undefined {
      if (!table || table.count === 0) return undefined;
      const slot = table.find(key, keyHash(key));
      if (slot < 0) return undefined;
      const stamp = stamps.get(table.shared[slot])!;
      const { scopes, versions: computed } = stamp.stamp;
      if (scopes.some((scope, i) => computed[i] !== versions.get(scope))) {
        remove(slot);
        return undefined;
      }
      table.touch(slot);
      return { slot, serial: table.serial[slot], shared: stamp };
    },

    /** The text and ETag of an answer (see renderAnswer). */
    render: renderAnswer,

    /**
     * Keeps a rendered answer for `key`, computed under `versions`, and gives it back as a pinned view of its copy
     * (answered as a hit is: `done` once the response has finished or closed); undefined when it could not be kept.
     */
    store(key: string, versions: Map<string, number>, profile: CacheProfile, rendered: Rendered, contentType: string) {
      stats.miss(profile.type);
      const { length, cuts } = entryLayout(rendered);
      const { views } = rendered;
      const slot = put(
        key,
        stamps.of(profile, contentType, versions),
        rendered.etag,
        length,
        (into) => into.write(rendered.text),
        views && cuts ? { views, cuts, counts: rendered.counts, partsHash: rendered.partsHash } : undefined,
        0,
      );
      if (slot < 0) return undefined;
      return { ...heldBody(slot), etag: rendered.etag, contentType } satisfies CachedAnswer;
    },

    /**
     * A streamed answer (the sitemap) passes through the returned stream to the client and is kept compressed once it
     * has ended: not kept if the stream fails or is dropped, or if it grows past the bound.
     */
    keepStream(key: string, versions: Map<string, number>, profile: CacheProfile, etag: string, contentType: string): Transform {
      stats.miss(profile.type);
      const stamp = stamps.of(profile, contentType, versions);
      const limit = config().maxBytes - costOf(undefined) - Buffer.byteLength(key) - etag.length;
      return compressedCopy(limit, (size, write) => put(key, stamp, etag, size, write, undefined, GZIP));
    },

    /**
     * The answer from `entry` with today's view counts; undefined when a counted row is gone (then computed anew). Its
     * body may be a pinned view of the region: the caller calls `done` once the response has finished or closed.
     */
    async answer(entry: CacheEntry, counting = true): Promise<CachedAnswer | undefined> {
      const t = table!;
      // Evicted or replaced since `get` (while the Public role's actions were read): computed anew.
      if (!t.holds(entry.slot, entry.serial)) return undefined;
      const { slot } = entry;
      const { contentType } = entry.shared;
      const offset = t.offset[slot];
      const keyLength = t.keyLength[slot];
      const etagAt = offset + keyLength;
      const bodyAt = etagAt + t.etagLength[slot];
      const region = slab!.region;
      const body = region.subarray(bodyAt, bodyAt + t.bodyLength[slot]);
      const etag = region.toString('latin1', etagAt, bodyAt);
      // Pinned before anything is awaited: evicted or replaced meanwhile, its bytes stay as they are until released.
      const done = slab!.hold(offset);
      if (t.flags[slot] & GZIP) {
        const key = region.toString('utf8', offset, etagAt);
        return { body, etag, contentType, encoding: 'gzip', done, plain: () => plainCopy(key, entry, body, etag) };
      }
      const views = counted.get(slot);
      if (!views) return { body, etag, contentType, done };
      const counts = await countsOf(views.views, counting).catch((error: unknown) => {
        done();
        throw error;
      });
      if (counts === null) return void done();
      if (sameCounts(views.counts, counts)) return { body, etag, contentType, done };
      const length = recountedLength(body.length, views.counts, counts);
      const nextEtag = views.partsHash !== undefined ? listEtag(views.partsHash, counts) : etag;
      // A detail's count moves at every read: its bytes are this answer's alone, an ordinary short-lived buffer. A
      // list's counts stay until one of its rows is read: the new bytes are kept in the region for the next hits, if
      // the entry is still the one kept (the same range) and they fit (the rewrite is the one copy either way).
      const current = views.views.kind === 'list' && t === table && t.holds(slot, entry.serial) && t.offset[slot] === offset;
      // place() may evict entries, never this one; the old range is still pinned.
      const at = current && nextEtag.length <= 0xffff ? place(keyLength + nextEtag.length + length, 0, slot) : -1;
      if (at < 0) {
        const { body: out } = recount(body, views.cuts, views.counts, counts);
        done();
        return { body: out, etag: nextEtag, contentType };
      }
      region.copy(region, at, offset, offset + keyLength);
      region.write(nextEtag, at + keyLength, 'latin1');
      const outAt = at + keyLength + nextEtag.length;
      const { body: out, cuts } = recount(body, views.cuts, views.counts, counts, region.subarray(outAt, outAt + length));
      done();
      slab!.release(offset, Slab.sizeOf(rangeLength(slot)));
      t.offset[slot] = at;
      t.etagLength[slot] = nextEtag.length;
      t.bodyLength[slot] = length;
      views.cuts = cuts;
      views.counts = counts;
      return { body: out, etag: nextEtag, contentType, done: slab!.hold(at) };
    },

    hit(type: string) {
      stats.hit(type);
    },

    /** Whether the Public role holds every one of `actions`, as of `permissionsVersion` (re-read when it moved). */
    publicMay: (actions: readonly string[], permissionsVersion: number) => publicRole.may(actions, permissionsVersion),

    stats() {
      const { enabled, maxBytes } = config();
      return { enabled, maxBytes, bytes: bytesUsed(), entries: table?.count ?? 0, types: stats.list() };
    },

    /** The region's bytes in use (the bodies' ranges, pinned ones of gone entries too); 0 before the first entry. */
    regionBytes() {
      return slab?.used ?? 0;
    },

    clear() {
      if (table) {
        for (const slot of table.slots()) remove(slot);
        table.reset();
      }
      counted = new Map();
      stats.clear();
      stamps.clear();
      publicRole.forget();
    },
  };
};

export type ResponseCacheService = ReturnType<typeof responseCache>;
export default responseCache;
