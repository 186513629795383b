/** Reports on comments: reasons, one per voter, exact counts, the threshold back to pending, moderation, limits. */
import { COMMENT, seedComments, createArticle } from '../helpers/comments';
import { commentOnArticle, counters, reportRows } from '../helpers/feedback';
import { adminToken, createUser, jwtFor } from '../helpers/fixtures';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const report = (id: number | string) => `/api/bag/comments/${id}/report`;
const ADMIN = '/cms-plugin-bag/comments';

describe('reports', () => {
  let app: TestApp;
  let admin: string;
  let ipCounter = 0;
  /** A client address of its own per report (proxy trusted): each one is another guest. */
  const nextIp = () => {
    ipCounter += 1;
    return `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
  };
  let guestCounter = 0;
  const guest = () => ({ ip: nextIp(), ua: `Browser/${(guestCounter += 1)}` });
  const send = (id: number | string, body: unknown, who = guest()) =>
    app.request().post(report(id)).set('X-Forwarded-For', who.ip).set('User-Agent', who.ua).send(body as object);

  beforeAll(async () => {
    app = await setupStrapi({
      env: { PROXY_TRUST: 'true' },
      config: { comments: { reports: { guests: true } }, rateLimit: { report: { interval: '1h', max: 1000 } } },
    });
    admin = `Bearer ${await adminToken(app)}`;
  });
  afterAll(async () => {
    await app.stop();
  });

  const visibleIds = async (articleDocumentId: string) =>
    (await app.request().get(`/api/bag/articles/${articleDocumentId}/comments`).expect(200)).body.data.map((node: { id: number }) => node.id);

  it('records one report per voter: a repeat is 200 and changes nothing; the answer carries no count', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const user = await createUser(app.strapi);
    const auth = `Bearer ${jwtFor(app.strapi, user)}`;
    const first = await app.request().post(report(comment.id)).set('Authorization', auth).send({ reason: 'spam', details: '  buy pills  ' }).expect(200);
    expect(first.body).toEqual({ data: { id: comment.id, documentId: comment.documentId, reported: true } });
    const again = await app.request().post(report(comment.documentId)).set('Authorization', auth).send({ reason: 'abuse' }).expect(200);
    expect(again.body).toEqual(first.body);
    expect(await counters(app.strapi, comment.id)).toEqual({ likes: 0, reportCount: 1, status: 'approved' });
    const rows = await reportRows(app.strapi, comment.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'spam', details: 'buy pills' });
  });

  it('stores guests as a keyed hash of the address, never the IP', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.77').set('User-Agent', 'Secret-UA/1').send({ reason: 'other' }).expect(200);
    await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.77').set('User-Agent', 'Secret-UA/1').send({ reason: 'other' }).expect(200);
    const rows = await reportRows(app.strapi, comment.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].voter).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain('198.51.100.77');
    expect(JSON.stringify(rows)).not.toContain('Secret-UA');
  });

  it('one address is one guest whatever its User-Agents: it cannot reach the threshold alone (IPv6 by /64)', async () => {
    const { article, comment } = await commentOnArticle(app.strapi);
    for (const ua of ['Browser/A', 'Browser/B', 'Browser/C']) {
      await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.88').set('User-Agent', ua).send({ reason: 'spam' }).expect(200);
    }
    for (const [ip, ua] of [['2001:db8:7:7::1', 'Browser/A'], ['2001:db8:7:7::2', 'Browser/B'], ['2001:db8:7:7:ffff::3', 'Browser/C']]) {
      await app.request().post(report(comment.id)).set('X-Forwarded-For', ip).set('User-Agent', ua).send({ reason: 'spam' }).expect(200);
    }
    expect(await counters(app.strapi, comment.id)).toEqual({ likes: 0, reportCount: 2, status: 'approved' });
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(2);
    expect(await visibleIds(article.documentId)).toEqual([comment.id]);
  });

  it('refuses a reason outside comments.reports.reasons and bad details with a 400 listing the reasons', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    for (const body of [{}, { reason: 'nope' }, { reason: 42 }, { reason: 'SPAM' }]) {
      const res = await send(comment.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('reason must be one of spam, abuse, off-topic, other');
      expect(res.body.error.details.errors[0].path).toEqual(['reason']);
      expect(res.body.error.details.allowed).toEqual(['spam', 'abuse', 'off-topic', 'other']);
    }
    for (const details of ['x'.repeat(1001), 'nul \u0000 here', 12, ['a']]) {
      const res = await send(comment.id, { reason: 'spam', details });
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors[0].path).toEqual(['details']);
    }
    await send(comment.id, { reason: 'off-topic', details: '😀'.repeat(1000) }).expect(200);
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(1);
  });

  it('answers 404 Comment not found for pending, rejected and unknown comments', async () => {
    const { comment: pending } = await commentOnArticle(app.strapi, 'pending');
    const { comment: rejected } = await commentOnArticle(app.strapi, 'rejected');
    for (const id of [pending.id, pending.documentId, rejected.id, 987654, 'nosuchdocument']) {
      const res = await send(id, { reason: 'spam' });
      expect({ id, status: res.status, message: res.body.error?.message }).toEqual({ id, status: 404, message: 'Comment not found' });
    }
    expect((await counters(app.strapi, pending.id)).reportCount).toBe(0);
  });

  it('sends an approved comment back to pending at the third report: it leaves the public tree and takes no more reports', async () => {
    const { article, comment } = await commentOnArticle(app.strapi);
    expect(await visibleIds(article.documentId)).toEqual([comment.id]);
    await send(comment.id, { reason: 'spam' }).expect(200);
    await send(comment.id, { reason: 'abuse' }).expect(200);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: 2, status: 'approved' });
    expect(await visibleIds(article.documentId)).toEqual([comment.id]);
    await send(comment.id, { reason: 'other' }).expect(200);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: 3, status: 'pending' });
    expect(await visibleIds(article.documentId)).toEqual([]);
    const late = await send(comment.id, { reason: 'spam' });
    expect(late.status).toBe(404);
  });

  it('30 concurrent reports by different guests: the count equals the rows and the comment is pending', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const results = await Promise.all(Array.from({ length: 30 }, () => send(comment.id, { reason: 'spam' })));
    // Reports checked before the threshold was reached still count; later ones find the comment pending (404).
    expect(results.every((res) => res.status === 200 || res.status === 404)).toBe(true);
    const accepted = results.filter((res) => res.status === 200).length;
    const rows = await reportRows(app.strapi, comment.id);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: rows.length, status: 'pending' });
    expect(rows.length).toBe(accepted);
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('the moderation API filters reported comments, most reported first, with reasons but no voter; approving clears them', async () => {
    const article = await createArticle(app.strapi);
    const [once, twice, never] = await seedComments(app.strapi, article.documentId, [
      { content: 'reported once', status: 'approved', parentIndex: null },
      { content: 'reported twice', status: 'approved', parentIndex: null },
      { content: 'never reported', status: 'approved', parentIndex: null },
    ]);
    await send(once, { reason: 'off-topic', details: 'not about the article' }).expect(200);
    await send(twice, { reason: 'spam' }).expect(200);
    await send(twice, { reason: 'abuse' }).expect(200);
    await app.request().post(`/api/bag/comments/${never}/like`).set('X-Forwarded-For', nextIp()).expect(200);

    const list = await app.request().get(`${ADMIN}?reported=true&article=${article.documentId}`).set('Authorization', admin).expect(200);
    expect(list.body.data.map((row: { id: number }) => row.id)).toEqual([twice, once]);
    expect(list.body.meta.pagination.total).toBe(2);
    const [first, second] = list.body.data;
    expect(first).toMatchObject({ reportCount: 2, likes: 0, status: 'approved' });
    expect(first.reports.map((r: { reason: string }) => r.reason)).toEqual(['spam', 'abuse']);
    expect(second.reports).toEqual([{ reason: 'off-topic', details: 'not about the article', createdAt: expect.any(String) }]);
    expect(JSON.stringify(list.body)).not.toContain('voter');

    const all = await app.request().get(`${ADMIN}?article=${article.documentId}`).set('Authorization', admin).expect(200);
    const neverRow = all.body.data.find((row: { id: number }) => row.id === never);
    expect(neverRow).toMatchObject({ likes: 1, reportCount: 0, reports: [] });

    await app.request().get(`${ADMIN}?reported=yes`).set('Authorization', admin).expect(400);

    await app.request().put(`${ADMIN}/status`).set('Authorization', admin).send({ documentIds: [first.documentId], status: 'approved' }).expect(200);
    expect(await counters(app.strapi, twice)).toMatchObject({ reportCount: 0, status: 'approved' });
    expect(await reportRows(app.strapi, twice)).toHaveLength(0);
    const after = await app.request().get(`${ADMIN}?reported=true&article=${article.documentId}`).set('Authorization', admin).expect(200);
    expect(after.body.data.map((row: { id: number }) => row.id)).toEqual([once]);

    // Rejecting keeps the reports (the moderator may still want to see why).
    await app.request().put(`${ADMIN}/status`).set('Authorization', admin).send({ documentIds: [second.documentId], status: 'rejected' }).expect(200);
    expect(await reportRows(app.strapi, once)).toHaveLength(1);

    // After an approval the threshold counts new reports only: three more send it back.
    for (let i = 0; i < 3; i += 1) await send(twice, { reason: 'spam' }).expect(200);
    expect(await counters(app.strapi, twice)).toMatchObject({ reportCount: 3, status: 'pending' });
  });

  it('an approval from the moderation page brings a comment hidden by reports back to the public tree', async () => {
    const { article, comment } = await commentOnArticle(app.strapi);
    for (let i = 0; i < 3; i += 1) await send(comment.id, { reason: 'spam' }).expect(200);
    expect(await visibleIds(article.documentId)).toEqual([]);
    await app.request().put(`${ADMIN}/status`).set('Authorization', admin).send({ documentIds: [comment.documentId], status: 'approved' }).expect(200);
    expect(await visibleIds(article.documentId)).toEqual([comment.id]);
  });

  it("deleting an account takes its reports off the comments' reportCount, whichever path deletes it", async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const { comment: other } = await commentOnArticle(app.strapi);
    const [leaving, removed, coded, staying] = [await createUser(app.strapi), await createUser(app.strapi), await createUser(app.strapi), await createUser(app.strapi)];
    const reportAs = (user: { id: number }, id: number) =>
      app.request().post(report(id)).set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).send({ reason: 'spam' }).expect(200);
    for (const user of [leaving, removed, coded]) await reportAs(user, comment.id);
    for (const user of [leaving, staying]) await reportAs(user, other.id);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: 3, status: 'pending' });
    expect(await counters(app.strapi, other.id)).toMatchObject({ reportCount: 2, status: 'approved' });

    // The account's own deletion (DELETE /auth/me).
    await app.request()
      .delete('/api/cms-plugin-bag/auth/me')
      .set('Authorization', `Bearer ${jwtFor(app.strapi, leaving)}`)
      .send({ password: leaving.password })
      .expect(200);
    expect((await counters(app.strapi, comment.id)).reportCount).toBe(2);
    expect((await counters(app.strapi, other.id)).reportCount).toBe(1);

    // An administrator deleting the user in the Content Manager.
    await app.request().delete(`/content-manager/collection-types/plugin::users-permissions.user/${removed.documentId}`).set('Authorization', admin).expect(200);
    expect((await counters(app.strapi, comment.id)).reportCount).toBe(1);
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(1);

    // The host's user service, as code calling it does. A comment the reports sent back to pending waits there for a
    // moderator; the reports of others stay.
    await app.strapi.plugin('users-permissions').service('user').remove({ id: coded.id });
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: 0, status: 'pending' });
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(0);
    expect(await counters(app.strapi, other.id)).toMatchObject({ reportCount: 1, status: 'approved' });
    expect(await reportRows(app.strapi, other.id)).toHaveLength(1);
  });

  it('deleting a comment deletes its reports', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    await send(comment.id, { reason: 'spam' }).expect(200);
    await app.strapi.documents(COMMENT as never).delete({ documentId: comment.documentId });
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(0);
  });
});

describe('reports with configured reasons, threshold and limit', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({
      env: { PROXY_TRUST: 'true' },
      config: { comments: { reports: { guests: true, reasons: ['spam', 'rude'], threshold: 1 } }, rateLimit: { report: { interval: '1h', max: 2 } } },
    });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('uses the configured reasons and threshold', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const refused = await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.1').send({ reason: 'abuse' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('reason must be one of spam, rude');
    await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.1').send({ reason: 'rude' }).expect(200);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: 1, status: 'pending' });
  });

  it('counts every report against rateLimit.report per client IP, users included: 429 past the max', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const user = await createUser(app.strapi);
    const auth = `Bearer ${jwtFor(app.strapi, user)}`;
    await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.2').set('Authorization', auth).send({ reason: 'nope' }).expect(400);
    await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.2').set('Authorization', auth).send({ reason: 'spam' }).expect(200);
    const refused = await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.2').set('Authorization', auth).send({ reason: 'spam' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Too many requests, please try again later.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('reports with the default configuration', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ env: { PROXY_TRUST: 'true' } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('refuses guests with 403 Log in to report comments (comments.reports.guests is false); users still report', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const refused = await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.5').send({ reason: 'spam' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Log in to report comments' } });
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(0);
    const user = await createUser(app.strapi);
    await app.request().post(report(comment.id)).set('X-Forwarded-For', '198.51.100.5').set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).send({ reason: 'spam' }).expect(200);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ reportCount: 1, status: 'approved' });
  });
});

describe('reports disabled', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ config: { comments: { reports: { enabled: false } } } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers 404 Reports are disabled and stores nothing', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const res = await app.request().post(report(comment.id)).send({ reason: 'spam' });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Reports are disabled');
    expect(await reportRows(app.strapi, comment.id)).toHaveLength(0);
  });
});
