import { PassThrough, Readable } from 'stream';
import { pipeline } from 'stream/promises';
import zlib from 'zlib';
import { compressedCopy } from './compressed-copy';

/** Streams `parts` through a compressed copy; what the client got, and the copy if one was kept. */
const through = async (parts: string[], limit: number) => {
  let kept: Buffer | undefined;
  const copy = compressedCopy(limit, (size, write) => {
    kept = Buffer.alloc(size);
    write(kept);
  });
  const received: Buffer[] = [];
  const client = new PassThrough();
  client.on('data', (chunk: Buffer) => received.push(chunk));
  await pipeline(Readable.from(parts), copy, client);
  return { sent: Buffer.concat(received).toString(), kept };
};

describe("a streamed answer's compressed copy (the sitemap's, docs/caching.md)", () => {
  const parts = Array.from({ length: 50 }, (_, i) => `<url><loc>https://example.com/articles/${i}</loc></url>\n`);

  it('passes the answer through unchanged and keeps a gzip of all of it once it has ended', async () => {
    const { sent, kept } = await through(parts, 1 << 20);
    expect(sent).toBe(parts.join(''));
    expect(kept).toBeDefined();
    expect(zlib.gunzipSync(kept!).toString()).toBe(parts.join(''));
  });

  it('keeps nothing when the gzip grows past the limit, and still sends the whole answer', async () => {
    const { sent, kept } = await through(parts, 16);
    expect(sent).toBe(parts.join(''));
    expect(kept).toBeUndefined();
  });

  it('keeps nothing when the answer fails on the way', async () => {
    const keep = jest.fn();
    const failing = new Readable({
      read() {
        this.push('<urlset>');
        this.destroy(new Error('the database went away'));
      },
    });
    await expect(pipeline(failing, compressedCopy(1 << 20, keep), new PassThrough())).rejects.toThrow('the database went away');
    await new Promise((resolve) => setImmediate(resolve));
    expect(keep).not.toHaveBeenCalled();
  });
});
