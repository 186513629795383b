/**
 * Likes, reports and comment counts through two playground processes (A, B) on one PostgreSQL database, requests
 * split between them: the counters are kept by the database (unique index + counter in one transaction), never by
 * one process, and the counts are read from it.
 */
import { commentOnArticle, counters, reactionRows, reportRows } from '../helpers/feedback';
import { createUser, jwtFor } from '../helpers/fixtures';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import type { TestApp } from '../helpers/strapi';

const CONFIG = {
  comments: { autoApprove: true, reports: { guests: true } },
  rateLimit: {
    reaction: { interval: '1h', max: 10_000 },
    report: { interval: '1h', max: 10_000 },
    comment: { interval: '1h', max: 10_000 },
  },
};

describe('likes, reports and counts on two instances sharing one PostgreSQL database', () => {
  let setup: TestApp;
  let a: Instance;
  let b: Instance;

  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ config: CONFIG, env: { PROXY_TRUST: 'true' } });
    ({ setup, a, b } = instances);
  }, 240_000);
  afterAll(() => instances?.stop());

  const on = (i: number) => (i % 2 === 0 ? a : b);

  it('50 concurrent likes by one user, split across A and B, count 1; as many unlikes count 0', async () => {
    const { comment } = await commentOnArticle(setup.strapi);
    const auth = `Bearer ${jwtFor(setup.strapi, await createUser(setup.strapi))}`;
    const likes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => on(i).request().post(`/api/bag/comments/${comment.id}/like`).set('Authorization', auth))
    );
    expect(likes.map((res) => res.status)).toEqual(new Array(50).fill(200));
    expect(await counters(setup.strapi, comment.id)).toMatchObject({ likes: 1 });
    expect(await reactionRows(setup.strapi, comment.id)).toHaveLength(1);

    const unlikes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => on(i).request().delete(`/api/bag/comments/${comment.documentId}/like`).set('Authorization', auth))
    );
    expect(unlikes.map((res) => res.status)).toEqual(new Array(50).fill(200));
    expect(await counters(setup.strapi, comment.id)).toMatchObject({ likes: 0 });
    expect(await reactionRows(setup.strapi, comment.id)).toHaveLength(0);
  });

  it('100 users (50 signed in, 50 guests) liking at once across A and B count exactly 100, as many as the rows', async () => {
    const { comment } = await commentOnArticle(setup.strapi);
    const users = await Promise.all(Array.from({ length: 50 }, () => createUser(setup.strapi)));
    const requests = [
      ...users.map((user, i) => on(i).request().post(`/api/bag/comments/${comment.id}/like`).set('Authorization', `Bearer ${jwtFor(setup.strapi, user)}`)),
      ...Array.from({ length: 50 }, (_, i) => on(i + 1).request().post(`/api/bag/comments/${comment.id}/like`).set('X-Forwarded-For', `192.0.2.${i + 1}`)),
    ];
    const results = await Promise.all(requests);
    expect(results.map((res) => res.status)).toEqual(new Array(100).fill(200));
    expect(await counters(setup.strapi, comment.id)).toMatchObject({ likes: 100 });
    expect(await reactionRows(setup.strapi, comment.id)).toHaveLength(100);
    const answered = await b.request().post(`/api/bag/comments/${comment.id}/like`).set('X-Forwarded-For', '192.0.2.1').expect(200);
    expect(answered.body.data.likes).toBe(100);
  });

  it('concurrent reports across A and B: the count equals the rows and the comment goes back to pending', async () => {
    const { comment } = await commentOnArticle(setup.strapi);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        on(i).request().post(`/api/bag/comments/${comment.id}/report`).set('X-Forwarded-For', `192.0.2.${100 + i}`).send({ reason: 'spam' })
      )
    );
    expect(results.every((res) => res.status === 200 || res.status === 404)).toBe(true);
    const rows = await reportRows(setup.strapi, comment.id);
    expect(rows.length).toBe(results.filter((res) => res.status === 200).length);
    expect(await counters(setup.strapi, comment.id)).toMatchObject({ reportCount: rows.length, status: 'pending' });
  });

  it('counts comments posted at once on A and B exactly once, the same from both, as the tree does', async () => {
    const { article } = await commentOnArticle(setup.strapi);
    const { article: other } = await commentOnArticle(setup.strapi);
    const posted = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        on(i)
          .request()
          .post('/api/bag/comments')
          .set('X-Forwarded-For', `198.51.100.${i + 1}`)
          .send({ article: article.documentId, content: `comment ${i}` })
      )
    );
    expect(posted.map((res) => res.status)).toEqual(new Array(30).fill(201));

    const query = `/api/bag/comments/counts?articles=${article.documentId},${other.documentId}`;
    const [fromA, fromB] = await Promise.all([a.request().get(query).expect(200), b.request().get(query).expect(200)]);
    const expected = { [article.documentId]: 31, [other.documentId]: 1 };
    expect(fromA.body.data).toEqual(expected);
    expect(fromB.body.data).toEqual(expected);
    const tree = await b.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    expect(tree.body.meta.total).toBe(31);
  });
});
