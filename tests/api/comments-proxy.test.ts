import { COMMENT, createArticle } from '../helpers/comments';
import { setupStrapi, type TestApp } from '../helpers/strapi';

/** Behind a trusted proxy (PROXY_TRUST → server.proxy.koa) the client IP comes from X-Forwarded-For. */
describe('comments behind a trusted proxy', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ env: { PROXY_TRUST: 'true' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('records the forwarded client IP and counts the flood limit per client', async () => {
    const article = await createArticle(app.strapi);
    const send = (ip: string, content: string) =>
      app.request().post('/api/bag/comments').set('X-Forwarded-For', ip).send({ content, article: article.documentId });

    const res = await send('198.51.100.7', 'from behind the proxy').expect(201);
    const row = await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: res.body.data.documentId } });
    expect(row.ip).toBe('198.51.100.7');

    for (let i = 2; i <= 5; i += 1) await send('198.51.100.7', `again ${i}`).expect(201);
    expect((await send('198.51.100.7', 'one too many')).status).toBe(429);
    await send('198.51.100.8', 'another client').expect(201);
  });

  it('reads the address the proxy appended (PROXY_MAX_IPS defaults to 1): a client-forged entry before it changes nothing', async () => {
    const article = await createArticle(app.strapi);
    const send = (forwardedFor: string, content: string) =>
      app.request().post('/api/bag/comments').set('X-Forwarded-For', forwardedFor).send({ content, article: article.documentId });

    const res = await send('203.0.113.66, 198.51.100.9', 'forged first entry').expect(201);
    const row = await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: res.body.data.documentId } });
    expect(row.ip).toBe('198.51.100.9');

    for (let i = 2; i <= 5; i += 1) await send(`203.0.113.${i}, 198.51.100.9`, `forged ${i}`).expect(201);
    expect((await send('203.0.113.99, 198.51.100.9', 'one too many')).status).toBe(429);
  });
});
