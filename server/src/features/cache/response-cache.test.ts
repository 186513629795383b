/**
 * A streamed answer (the sitemap) is kept once it has ended, under the versions read before it was computed. While it
 * streams, those versions may move and the stamp it was handed be replaced; its small id may then be given to another
 * route's stamp. The copy must not be kept under that id, where it would be read as current (under the other stamp's
 * versions) and with the other route's content type.
 */
import type { Core } from '@strapi/strapi';
import responseCache from './response-cache';

const strapi = {
  plugin: () => ({ service: () => ({ file: () => ({ cache: { enabled: true, maxBytes: 1024 * 1024 } }) }) }),
  log: { warn: () => undefined },
} as unknown as Core.Strapi;

/** Writes `text` through the stream and waits until it has ended (and the copy has been kept or not). */
const finish = (stream: ReturnType<ReturnType<typeof responseCache>['keepStream']>, text: string) =>
  new Promise<void>((resolve, reject) => {
    stream.on('data', () => undefined);
    stream.on('end', resolve);
    stream.on('error', reject);
    stream.end(text);
  });

describe('response cache: a stream kept after its stamp was replaced', () => {
  it('is not kept under an id another route was given meanwhile', async () => {
    const cache = responseCache({ strapi });
    cache.declare([
      { handler: 'discovery.sitemap', cache: { scopes: ['content'] } },
      { handler: 'article.find', cache: { scopes: ['content'] } },
    ] as never);
    const sitemap = cache.profileOf(['plugin::cms-plugin-bag.discovery.sitemap'])!;
    const articles = cache.profileOf(['plugin::cms-plugin-bag.article.find'])!;
    const before = new Map([['content', 1]]);
    const after = new Map([['content', 2]]);

    // The sitemap starts streaming under version 1 (no entry holds its stamp yet).
    const slow = cache.keepStream('/api/bag/sitemap.xml', before, sitemap, 'W/"old"', 'application/xml');
    // A write: version 2. Another sitemap request gets a new stamp, the first one's id is free...
    await finish(cache.keepStream('/api/bag/sitemaps/1.xml', after, sitemap, 'W/"page"', 'application/xml'), '<urlset/>');
    // ...and the article list's new stamp takes it.
    const list = cache.store('/api/bag/articles', after, articles, cache.render({ data: [] }, articles), 'application/json');
    list?.done?.();
    await finish(slow, '<urlset>before the write</urlset>');

    // The old copy is not served as current: the next read computes the sitemap anew.
    expect(cache.get('/api/bag/sitemap.xml', after)).toBeUndefined();
    // What was kept under version 2 is still served, with its own content type.
    const page = cache.get('/api/bag/sitemaps/1.xml', after);
    expect(page?.shared.contentType).toBe('application/xml');
    const listEntry = cache.get('/api/bag/articles', after);
    expect(listEntry?.shared.contentType).toBe('application/json');
  });
});
