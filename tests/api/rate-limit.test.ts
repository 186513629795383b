import { setupStrapi, type TestApp } from '../helpers/strapi';

describe('database-backed rate limit counters', () => {
  let app: TestApp;
  const limiter = () => app.strapi.plugin('cms-plugin-bag').service('rate-limit');
  const clock = () => app.strapi.plugin('cms-plugin-bag').service('clock');

  beforeAll(async () => {
    app = await setupStrapi();
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.stop();
  });

  it('counts concurrent hits exactly once each', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter().hit('test:concurrent', { interval: 60, max: 25 })));
    expect(results.map((r: { hits: number }) => r.hits).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1)
    );
    expect(results.filter((r: { allowed: boolean }) => r.allowed)).toHaveLength(25);
    expect(results.every((r: { retryAfter: number }) => r.retryAfter >= 1 && r.retryAfter <= 60)).toBe(true);
  });

  it('starts a new window once the interval has passed', async () => {
    const start = Date.now();
    const now = jest.spyOn(clock(), 'now').mockReturnValue(start);
    await limiter().hit('test:window', { interval: 10, max: 1 });
    expect((await limiter().hit('test:window', { interval: 10, max: 1 })).allowed).toBe(false);
    now.mockReturnValue(start + 10_001);
    expect(await limiter().hit('test:window', { interval: 10, max: 1 })).toMatchObject({ allowed: true, hits: 1 });
    now.mockRestore();
  });

  it('stores bucket names hashed, never the identifier itself', async () => {
    await limiter().hit('login:id:someone@example.com', { interval: 60, max: 5 });
    const rows = await app.strapi.db.connection('bag_rate_limits').select('bucket');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.bucket).toMatch(/^[0-9a-f]{64}$/);
  });

  it('purges counters whose window has passed', async () => {
    const now = jest.spyOn(clock(), 'now').mockReturnValue(Date.now() + 3_600_000);
    expect(await limiter().purgeExpired()).toBeGreaterThan(0);
    const left = await app.strapi.db.connection('bag_rate_limits').count({ n: '*' }).first();
    expect(Number(left?.n)).toBe(0);
    now.mockRestore();
  });
});
