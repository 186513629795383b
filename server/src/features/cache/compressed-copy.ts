/**
 * A streamed answer's compressed copy (the sitemap's, docs/caching.md): the answer passes through unchanged to the
 * client while a gzip of it is gathered; once the answer has ended whole, `keep` gets the gzip's size and a function
 * that writes it into a buffer of that size. Nothing is kept when the stream fails or the client drops it, or when the
 * gzip grows past `limit` bytes.
 */
import { Transform } from 'stream';
import zlib from 'zlib';

export function compressedCopy(limit: number, keep: (size: number, write: (into: Buffer) => void) => void): Transform {
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
    keep(size, (into) => {
      let at = 0;
      for (const chunk of compressed) at += chunk.copy(into, at);
    });
    compressed.length = 0;
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
}
