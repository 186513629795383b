/**
 * What the plugin records fits its columns on either database. PostgreSQL enforces column sizes that SQLite ignores:
 * a Strapi `string` is varchar(255) there, so a 512-character User-Agent (what platform/client.ts keeps) must go to a
 * `text` column, or a login or comment from such a client would fail with a 500 on PostgreSQL only.
 */
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const USER_AGENT = `Mozilla/5.0 ${'x'.repeat(500)}`; // 512 characters, the most platform/client.ts keeps
const IP = 'f'.repeat(64);

describe('stored columns on this database', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('stores a refresh token with a 512-character User-Agent and a 64-character IP', async () => {
    const created = await app.strapi.db.query(`${PLUGIN}.refresh-token`).create({
      data: { tokenHash: 'a'.repeat(64), userId: 1, expiresAt: Date.now() + 60_000, ip: IP, userAgent: USER_AGENT },
    });
    const stored = await app.strapi.db.query(`${PLUGIN}.refresh-token`).findOne({ where: { id: created.id } });
    expect(stored.userAgent).toBe(USER_AGENT);
    expect(stored.ip).toBe(IP);
  });

  it('stores a comment with a 512-character User-Agent and a 64-character IP', async () => {
    const created = await app.strapi.db.query(`${PLUGIN}.comment`).create({
      data: { content: 'long user agent', status: 'pending', ip: IP, userAgent: USER_AGENT },
    });
    const stored = await app.strapi.db.query(`${PLUGIN}.comment`).findOne({ where: { id: created.id } });
    expect(stored.userAgent).toBe(USER_AGENT);
    expect(stored.ip).toBe(IP);
  });
});
