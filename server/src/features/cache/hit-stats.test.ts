import { HitStats } from './hit-stats';

describe("the response cache's hits and misses per content type (docs/caching.md)", () => {
  it('counts per type, with the hit ratio, sorted by type', () => {
    const stats = new HitStats();
    stats.hit('page');
    stats.miss('article');
    stats.hit('article');
    stats.hit('article');
    stats.hit('article');
    stats.miss('menu');
    expect(stats.list()).toEqual([
      { type: 'article', hits: 3, misses: 1, hitRatio: 0.75 },
      { type: 'menu', hits: 0, misses: 1, hitRatio: 0 },
      { type: 'page', hits: 1, misses: 0, hitRatio: 1 },
    ]);
  });

  it('is empty at the start and after a clear', () => {
    const stats = new HitStats();
    expect(stats.list()).toEqual([]);
    stats.hit('article');
    stats.clear();
    expect(stats.list()).toEqual([]);
    stats.miss('article');
    expect(stats.list()).toEqual([{ type: 'article', hits: 0, misses: 1, hitRatio: 0 }]);
  });
});
