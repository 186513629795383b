/** Likes on comments: idempotence, exact counts under concurrency, guests by hashed address, 404s, limits. */
import { COMMENT, createArticle, seedComments } from '../helpers/comments';
import { commentOnArticle, counters, reactionRows, REACTION, REPORT } from '../helpers/feedback';
import { createUser, jwtFor } from '../helpers/fixtures';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const like = (id: number | string) => `/api/bag/comments/${id}/like`;
const UA = 'Mozilla/5.0 (reaction test)';

describe('likes', () => {
  let app: TestApp;
  let ipCounter = 0;
  /** A client address of its own per scenario (proxy trusted), so per-IP limits and guest keys do not mix. */
  const nextIp = () => `203.0.113.${(ipCounter += 1)}`;

  beforeAll(async () => {
    app = await setupStrapi({ env: { PROXY_TRUST: 'true' }, config: { rateLimit: { reaction: { interval: '1h', max: 1000 } } } });
  });
  afterAll(async () => {
    await app.stop();
  });

  const asUser = async () => {
    const user = await createUser(app.strapi);
    return { user, auth: `Bearer ${jwtFor(app.strapi, user)}` };
  };

  it('a user likes once: a second like and a second unlike change nothing, by numeric id or documentId', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const { auth } = await asUser();
    const ip = nextIp();
    const first = await app.request().post(like(comment.id)).set('Authorization', auth).set('X-Forwarded-For', ip).expect(200);
    expect(first.body).toEqual({ data: { id: comment.id, documentId: comment.documentId, likes: 1, liked: true } });
    const again = await app.request().post(like(comment.documentId)).set('Authorization', auth).set('X-Forwarded-For', ip).expect(200);
    expect(again.body.data).toEqual({ id: comment.id, documentId: comment.documentId, likes: 1, liked: true });
    expect(await counters(app.strapi, comment.id)).toMatchObject({ likes: 1 });
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(1);

    const unliked = await app.request().delete(like(comment.documentId)).set('Authorization', auth).set('X-Forwarded-For', ip).expect(200);
    expect(unliked.body.data).toEqual({ id: comment.id, documentId: comment.documentId, likes: 0, liked: false });
    const unlikedAgain = await app.request().delete(like(comment.id)).set('Authorization', auth).set('X-Forwarded-For', ip).expect(200);
    expect(unlikedAgain.body.data).toMatchObject({ likes: 0, liked: false });
    expect(await counters(app.strapi, comment.id)).toMatchObject({ likes: 0 });
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(0);
  });

  it('one user is one like whatever the address; two users from one address are two', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const ada = await asUser();
    const bob = await asUser();
    const ip = nextIp();
    await app.request().post(like(comment.id)).set('Authorization', ada.auth).set('X-Forwarded-For', nextIp()).expect(200);
    await app.request().post(like(comment.id)).set('Authorization', ada.auth).set('X-Forwarded-For', ip).expect(200);
    const res = await app.request().post(like(comment.id)).set('Authorization', bob.auth).set('X-Forwarded-For', ip).expect(200);
    expect(res.body.data.likes).toBe(2);
  });

  it('50 concurrent likes by one user count 1; 40 users at once count 40; likes always equals the stored rows', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const { auth } = await asUser();
    const same = await Promise.all(
      Array.from({ length: 50 }, () => app.request().post(like(comment.id)).set('Authorization', auth).set('X-Forwarded-For', nextIp()))
    );
    expect(same.map((res) => res.status)).toEqual(new Array(50).fill(200));
    expect(await counters(app.strapi, comment.id)).toMatchObject({ likes: 1 });
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(1);

    const users = await Promise.all(Array.from({ length: 40 }, () => asUser()));
    const many = await Promise.all(users.map(({ auth: a }) => app.request().post(like(comment.id)).set('Authorization', a)));
    expect(many.map((res) => res.status)).toEqual(new Array(40).fill(200));
    expect(await counters(app.strapi, comment.id)).toMatchObject({ likes: 41 });
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(41);

    // Likes and unlikes of the same users racing each other: whatever wins, the counter matches the rows.
    const mixed = await Promise.all(
      users.flatMap(({ auth: a }, i) => [
        app.request().delete(like(comment.id)).set('Authorization', a),
        i % 2 === 0 ? app.request().post(like(comment.id)).set('Authorization', a) : app.request().delete(like(comment.id)).set('Authorization', a),
      ])
    );
    expect(mixed.every((res) => res.status === 200)).toBe(true);
    const rows = await reactionRows(app.strapi, comment.id);
    expect((await counters(app.strapi, comment.id)).likes).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(21);
  });

  it('a guest is its address alone, whatever the User-Agent, stored only as a keyed hash (IPv6 by /64)', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const ip = nextIp();
    const guest = (ua = UA) => app.request().post(like(comment.id)).set('X-Forwarded-For', ip).set('User-Agent', ua);
    expect((await guest().expect(200)).body.data).toMatchObject({ likes: 1, liked: true });
    expect((await guest().expect(200)).body.data).toMatchObject({ likes: 1, liked: true });
    // The User-Agent is the client's to choose: twelve of them from one address are still one guest.
    for (let i = 0; i < 12; i += 1) expect((await guest(`Other/${i}`).expect(200)).body.data.likes).toBe(1);
    await app.request().post(like(comment.id)).set('X-Forwarded-For', '2001:db8:1:2::1').set('User-Agent', UA).expect(200);
    const sameNetwork = await app.request().post(like(comment.id)).set('X-Forwarded-For', '2001:db8:1:2::ffff').set('User-Agent', 'Other/1.0').expect(200);
    expect(sameNetwork.body.data.likes).toBe(2);
    const otherNetwork = await app.request().post(like(comment.id)).set('X-Forwarded-For', '2001:db8:1:3::1').set('User-Agent', UA).expect(200);
    expect(otherNetwork.body.data.likes).toBe(3);

    const rows = await reactionRows(app.strapi, comment.id);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.voter).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(ip);
      expect(JSON.stringify(row)).not.toContain('2001:db8');
      expect(JSON.stringify(row)).not.toContain('reaction test');
    }
    // Unliking from the same address takes exactly that guest's like back, whichever User-Agent it sends.
    const unliked = await app.request().delete(like(comment.id)).set('X-Forwarded-For', ip).set('User-Agent', 'Third/2').expect(200);
    expect(unliked.body.data).toEqual({ id: comment.id, documentId: comment.documentId, likes: 2, liked: false });
  });

  it('answers 404 Comment not found for pending, rejected, unknown, hidden-thread and unpublished-article comments', async () => {
    const { comment: pending } = await commentOnArticle(app.strapi, 'pending');
    const { comment: rejected } = await commentOnArticle(app.strapi, 'rejected');
    const article = await createArticle(app.strapi);
    const [, reply] = await seedComments(app.strapi, article.documentId, [
      { content: 'hidden root', status: 'pending', parentIndex: null },
      { content: 'approved reply under it', status: 'approved', parentIndex: 0 },
    ]);
    const draft = await createArticle(app.strapi, { publish: false });
    const [onDraft] = await seedComments(app.strapi, draft.documentId, [{ content: 'on a draft', status: 'approved', parentIndex: null }]);
    for (const id of [pending.id, pending.documentId, rejected.id, reply, onDraft, 987654, 'nosuchdocument', 'bad%20id', '99999999999']) {
      for (const method of ['post', 'delete'] as const) {
        const res = await app.request()[method](like(id)).set('X-Forwarded-For', nextIp());
        expect({ id, method, status: res.status, message: res.body.error?.message }).toEqual({ id, method, status: 404, message: 'Comment not found' });
      }
    }
    expect(await app.strapi.db.query(COMMENT as never).count({ where: { likes: { $gt: 0 }, id: { $in: [pending.id, rejected.id, reply, onDraft] } } })).toBe(0);
  });

  it('answers with id, documentId, likes and liked only; the public tree shows no voter or report data', async () => {
    const { article, comment } = await commentOnArticle(app.strapi);
    const res = await app.request().post(like(comment.id)).set('X-Forwarded-For', nextIp()).set('User-Agent', UA).expect(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['documentId', 'id', 'liked', 'likes']);
    const tree = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    const text = JSON.stringify(tree.body);
    for (const hidden of ['reportCount', 'voter', 'reports', 'ip', 'userAgent']) expect(text).not.toContain(`"${hidden}"`);
  });

  it('the database itself refuses a second reaction or report row for one comment and voter (unique index)', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    for (const [uid, extra] of [[REACTION, {}], [REPORT, { reason: 'spam' }]] as const) {
      const table = app.strapi.db.metadata.get(uid).tableName;
      const row = { comment: comment.id, voter: 'f'.repeat(64), ...extra };
      await app.strapi.db.connection(table).insert(row);
      // Compared by message: better-sqlite3's error class may come from another test file's realm (not `instanceof Error` here).
      const refused = await app.strapi.db.connection(table).insert(row).then(() => null, (error: unknown) => String(error));
      expect(refused).toMatch(/unique|duplicate/i);
      const [{ count }] = await app.strapi.db.connection(table).where(row).count({ count: '*' });
      expect(Number(count)).toBe(1);
    }
  });

  it('deleting a comment deletes its likes', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    await app.request().post(like(comment.id)).set('X-Forwarded-For', nextIp()).expect(200);
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(1);
    await app.strapi.documents(COMMENT as never).delete({ documentId: comment.documentId });
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(0);
  });
});

describe('likes restricted by configuration', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({
      env: { PROXY_TRUST: 'true' },
      config: { comments: { reactions: { guests: false } }, rateLimit: { reaction: { interval: '1h', max: 3 } } },
    });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('refuses guests with 403 when comments.reactions.guests is false; users still like', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const refused = await app.request().post(like(comment.id)).set('X-Forwarded-For', '198.51.100.1');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Log in to like comments');
    const user = await createUser(app.strapi);
    const res = await app.request().post(like(comment.id)).set('X-Forwarded-For', '198.51.100.2').set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.likes).toBe(1);
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(1);
  });

  it('counts likes and unlikes against rateLimit.reaction per client IP, users included: 429 past the max', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const user = await createUser(app.strapi);
    const send = () => app.request().post(like(comment.id)).set('X-Forwarded-For', '198.51.100.3').set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`);
    for (let i = 0; i < 3; i += 1) await send().expect(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Too many requests, please try again later.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const unlike = await app.request().delete(like(comment.id)).set('X-Forwarded-For', '198.51.100.3').set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`);
    expect(unlike.status).toBe(429);
    expect(await counters(app.strapi, comment.id)).toMatchObject({ likes: 1 });
  });
});

describe('likes disabled', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ config: { comments: { reactions: { enabled: false } } } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers 404 Reactions are disabled, for users and guests', async () => {
    const { comment } = await commentOnArticle(app.strapi);
    const user = await createUser(app.strapi);
    for (const auth of [undefined, `Bearer ${jwtFor(app.strapi, user)}`]) {
      for (const method of ['post', 'delete'] as const) {
        const request = app.request()[method](like(comment.id));
        const res = await (auth ? request.set('Authorization', auth) : request);
        expect({ method, status: res.status, message: res.body.error?.message }).toEqual({ method, status: 404, message: 'Reactions are disabled' });
      }
    }
    expect(await reactionRows(app.strapi, comment.id)).toHaveLength(0);
  });
});
