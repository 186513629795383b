/**
 * A gzip copy the response cache keeps (a sitemap's), decompressed for a client that does not take gzip.
 */
import { promisify } from 'util';
import zlib from 'zlib';

const gunzip = promisify(zlib.gunzip);

/** Copies up to this size (about 1 MB of XML, a millisecond or two) are decompressed synchronously. */
const SYNC_GUNZIP_BYTES = 64 * 1024;

/** Deflate's largest ratio: no copy decompresses to more than this many times its size. */
const MAX_RATIO = 1032;

/**
 * The copy's text, decompressed into one buffer of its size: the size the gzip's trailer gives (ISIZE, the size modulo
 * 2³²; no copy is that big), capped at what the copy's length allows. Without it zlib gathers 16 KB chunks and joins
 * them, a third more time. Small copies at once (a thread-pool round trip costs more than the work), large ones off
 * the event loop.
 */
export const gunzipKept = async (copy: Buffer): Promise<Buffer> => {
  const size = copy.length >= 4 ? copy.readUInt32LE(copy.length - 4) : 0;
  const options = { chunkSize: Math.max(zlib.constants.Z_MIN_CHUNK, Math.min(size, copy.length * MAX_RATIO)) };
  return copy.length <= SYNC_GUNZIP_BYTES ? zlib.gunzipSync(copy, options) : gunzip(copy, options);
};
