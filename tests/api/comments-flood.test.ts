import { COMMENT, createArticle } from '../helpers/comments';
import { setupStrapi, type TestApp } from '../helpers/strapi';

/** Default comment flood limit (5 a minute per client IP) and no proxy trust: X-Forwarded-For is ignored. */
describe('comment flood limit without proxy trust', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ env: { PROXY_TRUST: 'false' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers 429 with Retry-After after 5 comments a minute, whatever X-Forwarded-For says', async () => {
    const article = await createArticle(app.strapi);
    const send = (i: number) =>
      app.request().post('/api/bag/comments').set('X-Forwarded-For', `203.0.113.${i}`).send({ content: `flood ${i}`, article: article.documentId });
    for (let i = 1; i <= 5; i += 1) await send(i).expect(201);
    const refused = await send(6);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Too many requests, please try again later.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await app.strapi.db.query(COMMENT as never).count({ where: { content: 'flood 6' } })).toBe(0);

    const rows = await app.strapi.db.query(COMMENT as never).findMany({ select: ['ip'] });
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.ip).toMatch(/127\.0\.0\.1$/);
  });
});
