/**
 * The database-backed counters behind every rate limit, on whichever database the run uses (SQLite or PostgreSQL):
 * the hand-written upsert stays atomic under concurrency, returns numbers (pg gives bigint columns as strings), and
 * the window resets when its time has passed.
 */
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

interface HitResult {
  allowed: boolean;
  hits: number;
  retryAfter: number;
}
interface RateLimitService {
  hit(bucket: string, limit: { interval: number; max: number }): Promise<HitResult>;
  purgeExpired(): Promise<number>;
}

describe('rate-limit counters in the database', () => {
  let app: TestApp;
  let limiter: RateLimitService;
  let clock: { now: () => number };

  beforeAll(async () => {
    app = await setupStrapi();
    limiter = app.strapi.plugin('cms-plugin-bag').service('rate-limit') as RateLimitService;
    clock = app.strapi.plugin('cms-plugin-bag').service('clock') as { now: () => number };
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await app.stop();
  });

  it('counts 60 concurrent hits as exactly 1..60, each once, with numbers not strings', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, () => limiter.hit('concurrent', { interval: 60, max: 50 }))
    );
    for (const result of results) {
      expect(typeof result.hits).toBe('number');
      expect(typeof result.retryAfter).toBe('number');
    }
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(results.filter((r) => r.allowed)).toHaveLength(50);
    expect(Math.max(...results.map((r) => r.retryAfter))).toBeLessThanOrEqual(60);

    const rows = await app.strapi.db.query(`${PLUGIN}.rate-limit`).findMany({});
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].hits)).toBe(60);
    expect(rows[0].bucket).not.toContain('concurrent');
  });

  it('never tells a client to wait longer than the window, even when the window was opened by a later clock reading', async () => {
    const start = Date.now();
    jest.spyOn(clock, 'now').mockReturnValue(start + 900);
    expect(await limiter.hit('skew', { interval: 10, max: 5 })).toEqual({ allowed: true, hits: 1, retryAfter: 10 });
    // A request that read the clock earlier (or on an instance whose clock lags) reaches the database second.
    jest.spyOn(clock, 'now').mockReturnValue(start);
    expect(await limiter.hit('skew', { interval: 10, max: 5 })).toEqual({ allowed: true, hits: 2, retryAfter: 10 });
  });

  it('starts a new window once the old one has passed, and purges expired counters', async () => {
    const start = Date.now();
    jest.spyOn(clock, 'now').mockReturnValue(start);
    expect((await limiter.hit('window', { interval: 10, max: 2 })).hits).toBe(1);
    expect(await limiter.hit('window', { interval: 10, max: 2 })).toEqual({ allowed: true, hits: 2, retryAfter: 10 });
    jest.spyOn(clock, 'now').mockReturnValue(start + 4_000);
    expect(await limiter.hit('window', { interval: 10, max: 2 })).toEqual({ allowed: false, hits: 3, retryAfter: 6 });

    jest.spyOn(clock, 'now').mockReturnValue(start + 10_000);
    expect(await limiter.hit('window', { interval: 10, max: 2 })).toEqual({ allowed: true, hits: 1, retryAfter: 10 });

    jest.spyOn(clock, 'now').mockReturnValue(start + 20_000);
    expect(await limiter.purgeExpired()).toBeGreaterThanOrEqual(1);
    const left = await app.strapi.db.query(`${PLUGIN}.rate-limit`).findMany({});
    expect(left.every((row: { resetAt: unknown }) => Number(row.resetAt) > start + 20_000)).toBe(true);
  });
});
