import crypto from 'crypto';
import zlib from 'zlib';
import { gunzipKept } from './gunzip';

describe('gunzipKept', () => {
  it.each([
    ['an empty text', Buffer.alloc(0)],
    ['a short text', Buffer.from('<urlset>é</urlset>')],
    ['a sitemap-like text (small copy, decompressed at once)', Buffer.from('<url><loc>/a</loc></url>'.repeat(20_000))],
    // Random bytes do not compress: a copy over 64 KB, decompressed off the event loop.
    ['an incompressible text (large copy)', crypto.randomBytes(300_000)],
  ])('gives back %s byte for byte', async (_name, text) => {
    const copy = zlib.gzipSync(text);
    const decompressed = await gunzipKept(copy);
    expect(decompressed.equals(text)).toBe(true);
  });

  it.each([
    ['cut short', (copy: Buffer) => copy.subarray(0, copy.length - 8)],
    ['with a trailer claiming 4 GB', (copy: Buffer) => Buffer.concat([copy.subarray(0, -4), Buffer.alloc(4, 255)])],
    ['of three bytes', () => Buffer.from([31, 139, 8])],
  ])('fails on a copy %s instead of answering part of it', async (_name, damage) => {
    const copy = zlib.gzipSync(Buffer.from('x'.repeat(10_000)));
    await expect(gunzipKept(damage(copy))).rejects.toThrow(/unexpected end|incorrect length|size/i);
  });
});
