/**
 * The scheduled purge (`rateLimit.purgeInterval`): expired rate-limit counters, image captchas and e-mail codes are
 * deleted by a timer every instance runs, live rows stay. The test holds the job while it writes, then lets the
 * timer's next run through and waits for that run (no sleeping).
 */
import { AUTH, restoreClock, shiftClock } from '../helpers/auth';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const RATE_LIMIT = `${PLUGIN}.rate-limit`;
const CAPTCHA = `${PLUGIN}.captcha`;
const HOURS = 3600 * 1000;

interface Purge {
  run(): Promise<{ rateLimits: number; captchas: number; emailChanges: number }>;
}

describe('purge of expired rows', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ config: { rateLimit: { purgeInterval: '1s' } } });
  });
  afterEach(() => {
    restoreClock(app.strapi);
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('deletes expired counters and captchas on its schedule and keeps live ones', async () => {
    const purge = app.strapi.plugin('cms-plugin-bag').service('purge') as Purge;
    const run = purge.run.bind(purge);
    const job = jest.spyOn(purge, 'run').mockResolvedValue({ rateLimits: 0, captchas: 0, emailChanges: 0 });

    // Live rows first (drawing a captcha also purges lazily, which would take the old ones before the job does).
    await app.request().post(`${AUTH}/login`).send({ identifier: 'live@example.com', password: 'x' }).expect(400);
    const live = await app.request().get(`${AUTH}/captcha-image`).expect(200);
    // Written two hours ago: windows of 1 min and a captcha of 5 min, long past.
    shiftClock(app.strapi, -2 * HOURS);
    for (let i = 0; i < 3; i += 1) await app.request().post(`${AUTH}/login`).send({ identifier: `old${i}@example.com`, password: 'x' }).expect(400);
    await app.request().get(`${AUTH}/captcha-image`).expect(200);
    restoreClock(app.strapi);
    expect(await app.strapi.db.query(RATE_LIMIT).count()).toBe(6); // login: IP, live, 3 old; captcha-image: IP
    expect(await app.strapi.db.query(CAPTCHA).count()).toBe(2);

    const purged = new Promise<{ rateLimits: number; captchas: number; emailChanges: number }>((resolve, reject) => {
      job.mockImplementation(() => {
        const result = run();
        result.then(resolve, reject);
        return result;
      });
    });
    expect(await purged).toEqual({ rateLimits: 3, captchas: 1, emailChanges: 0 });

    const now = Date.now();
    const counters = await app.strapi.db.query(RATE_LIMIT).findMany({});
    expect(counters).toHaveLength(3);
    expect(counters.every((row: { resetAt: unknown }) => Number(row.resetAt) > now)).toBe(true);
    const captchas = await app.strapi.db.query(CAPTCHA).findMany({});
    expect(captchas.map((row: { lookup: string }) => row.lookup)).toEqual([live.body.key]);
  });
});
