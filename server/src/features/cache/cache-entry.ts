/**
 * What the response cache keeps and answers with (docs/caching.md), without the store: an answer turned into an entry
 * (its bytes, its ETag, where its `views` counts go, what it costs against `cache.maxBytes`) and an entry's bytes back
 * with today's counts. Pure functions; the store, its bound and its stats are features/cache/response-cache.ts.
 */
import crypto from 'crypto';
import type { CacheScope } from '../../platform/cache-scopes';

/**
 * Memory an entry costs besides its range in the region (where its key, ETag and body are): its slot in the entries'
 * table (features/cache/entry-table.ts: `BYTES_PER_SLOT` bytes of columns outside V8's heap, for up to two and a half
 * slots per entry, the table growing by doubling and shrinking once under a quarter full). Measured with
 * scripts/cache-entry-cost.mjs (V8 heap and external memory per entry after a full collection, plus its range in the
 * region, small search answers). Before the table an entry was six objects and two strings on V8's heap, 448 bytes
 * counted and 464 on the heap; entries stored and evicted by the ten thousand left old-space pages committed with a
 * few live entries on each (see docs/caching.md).
 */
export const ENTRY_OVERHEAD_BYTES = 128;
/**
 * An entry whose body shows `views` keeps them in an object of its own (`Counted`, with the hash of its JSON without
 * them for a list): a cached list's ids and the counts its body shows (one array slot each, and the arrays); a
 * detail's document id (a string with its header) and its one count.
 */
const COUNTED_BYTES = 320;
const LIST_ROW_BYTES = 16;
const LIST_VIEWS_BYTES = 96;
const DETAIL_VIEWS_BYTES = 128;

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

/** A route's cache behaviour as its route module declares it (platform/route-types.ts), by its handler `controller.action`. */
export interface CacheDeclaration {
  handler: string;
  cache: { scopes: readonly CacheScope[]; views?: { type: string; kind: 'detail' | 'list' } };
}

/** Where `views` sits in a cached body: a detail's one document, or a list's rows by id. */
export type ViewSlots = { uid: string; kind: 'detail'; documentId: string; locale?: string } | { uid: string; kind: 'list'; ids: number[] };

/** The versions of a profile's scopes an answer was computed under; one object shared by every entry that has them. */
interface Stamp {
  scopes: readonly CacheScope[];
  versions: readonly number[];
}

/** What entries of one route computed under the same versions share: an entry holds its small `id`. */
export interface Shared {
  id: number;
  /** Entries that hold it. */
  refs: number;
  /** Its name among the newest (`profile`, `contentType`). */
  name: string;
  profile: CacheProfile;
  contentType: string;
  stamp: Stamp;
}

/**
 * Where an entry's body shows `views`: the offsets in its body where each count starts and the counts written there,
 * and for a list the hash of its JSON without them, from which each new set of counts makes its ETag.
 */
export interface Counted {
  views: ViewSlots;
  cuts: number[];
  counts: number[];
  partsHash: string | undefined;
}

/** An entry as `get` hands it out: its slot in the table while `serial` is still the slot's, and what it shares. */
export interface CacheEntry {
  slot: number;
  serial: number;
  shared: Shared;
}

/** An answer to send: its bytes, its ETag and content type. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
  encoding?: 'gzip';
  /** For a compressed body: its text, for a client that does not take the encoding. */
  plain?: () => Promise<PlainCopy>;
  /**
   * `body` is a view of the cache's region, pinned: call once nothing reads it any more (the response has finished or
   * closed), so its range may be reused. Calling it twice is harmless.
   */
  done?: () => void;
}

/** A compressed answer's text: a pinned view of the region (release with `done`, as `CachedAnswer`'s) or its own. */
export interface PlainCopy {
  body: Buffer;
  done?: () => void;
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
    return parts.length === 2
      ? { parts, views: { uid, kind: 'detail', documentId: data.documentId, ...(typeof data.locale === 'string' ? { locale: data.locale } : {}) } }
      : whole();
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

/** Whether two lists of counts are the same. */
export const sameCounts = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((count, i) => count === b[i]);

/** The length of a body of `length` bytes showing `shown`, once rewritten to show `counts`. */
export const recountedLength = (length: number, shown: readonly number[], counts: readonly number[]) => {
  let size = length;
  for (let i = 0; i < counts.length; i += 1) size += String(counts[i]).length - String(shown[i]).length;
  return size;
};

/**
 * A body showing `shown` at `cuts`, rewritten to show `counts` (ASCII digits) into `out` (of `recountedLength`
 * bytes; a new buffer by default): the new bytes and the counts' new offsets.
 */
export const recount = (
  body: Buffer,
  cuts: readonly number[],
  shown: readonly number[],
  counts: readonly number[],
  out: Buffer = Buffer.allocUnsafe(recountedLength(body.length, shown, counts)),
) => {
  const moved: number[] = [];
  let from = 0;
  let to = 0;
  cuts.forEach((cut, i) => {
    const was = String(shown[i]);
    to += body.copy(out, to, from, cut);
    moved.push(to);
    to += out.write(String(counts[i]), to, 'latin1');
    from = cut + was.length;
  });
  body.copy(out, to, from);
  return { body: out, cuts: moved };
};

/** A list's strong ETag: its JSON without the counts (hashed once, when stored) and the counts, so the bytes. */
export const listEtag = (partsHash: string, counts: number[]) => `"${hash(`${partsHash} ${counts.join(',')}`)}"`;

/** The answer as written, before it is stored: its text, its ETag, and what an entry needs. */
export interface Rendered {
  text: string;
  etag: string;
  parts: string[];
  views: ViewSlots | undefined;
  /** A list with counts: the hash of its JSON without them. */
  partsHash: string | undefined;
  /** With `views`: the counts `text` shows, one per cut. */
  counts: number[];
}


/**
 * The text and ETag of a JSON answer (an object koa would write, or text a controller wrote): strong over its bytes;
 * weak and without `views` for a detail that shows them; for a list with counts, over its JSON without them and the
 * counts.
 */
export const renderAnswer = (body: Record<string, unknown> | string, profile: CacheProfile | undefined): Rendered => {
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
    return { text, etag: listEtag(partsHash, counts), parts, views, partsHash, counts };
  }
  const etag = views?.kind === 'detail' ? `W/"${hash(parts.join(TOKEN))}"` : `"${hash(text)}"`;
  return { text, etag, parts, views, partsHash: undefined, counts };
};

/** What an entry costs against `cache.maxBytes` besides its range in the region (which holds its key, ETag and body). */
export const costOf = (views: ViewSlots | undefined) =>
  ENTRY_OVERHEAD_BYTES +
  (views === undefined
    ? 0
    : COUNTED_BYTES + (views.kind === 'list' ? LIST_VIEWS_BYTES + LIST_ROW_BYTES * views.ids.length : DETAIL_VIEWS_BYTES));

/** A rendered answer's body as kept: its length in bytes, and where its counts start. */
export const entryLayout = (rendered: Rendered): { length: number; cuts: number[] | undefined } => {
  const length = Buffer.byteLength(rendered.text);
  if (rendered.parts.length === 1) return { length, cuts: undefined };
  const cuts: number[] = [];
  let offset = 0;
  rendered.parts.slice(0, -1).forEach((part, i) => {
    offset += Buffer.byteLength(part);
    cuts.push(offset);
    offset += String(rendered.counts[i]).length;
  });
  return { length, cuts };
};
