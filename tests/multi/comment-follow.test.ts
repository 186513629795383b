/**
 * Follower mails with two playground processes (A, B) on one PostgreSQL database and one real SMTP server: comments
 * approved by both instances at the same moment (twice, with a rejection between) mail each follower once per
 * comment. Counted after both processes shut down gracefully: their destroy waits for every mail under way.
 */
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { createArticle } from '../helpers/comments';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import type { TestApp } from '../helpers/strapi';

const FOLLOWERS = 3;
const COMMENTS = 6;
const CONFIG = {
  comments: { notifications: { publicUrl: 'https://cms.example.test' } },
  rateLimit: { comment: { interval: '1m', max: 100_000 } },
};

describe('follower mails on two instances', () => {
  let setup: TestApp;
  let smtp: TestSmtp;
  let a: Instance;
  let b: Instance;
  let admin: string;
  let instances: TwoInstances;

  beforeAll(async () => {
    smtp = await startSmtp();
    instances = await startTwoInstances({
      config: CONFIG,
      env: smtp.env,
      beforeInstances: async (app) => {
        admin = await adminToken(app);
      },
    });
    ({ setup, a, b } = instances);
  }, 240_000);
  afterAll(async () => {
    await instances?.stop();
    await smtp?.stop();
  });

  const setStatus = (instance: Instance, documentIds: string[], status: string) =>
    instance.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status }).expect(200);

  it('mails every follower once per comment, whichever instance approves it', async () => {
    const article = await createArticle(setup.strapi);
    const followers: TestUser[] = [];
    for (let i = 0; i < FOLLOWERS; i += 1) {
      const follower = await createUser(setup.strapi);
      followers.push(follower);
      const instance = i % 2 ? b : a;
      await instance.request().post(`/api/bag/articles/${article.documentId}/subscription`).set('Authorization', `Bearer ${jwtFor(setup.strapi, follower)}`).expect(200);
    }
    const writer = jwtFor(setup.strapi, await createUser(setup.strapi));
    const ids: string[] = [];
    for (let i = 0; i < COMMENTS; i += 1) {
      const res = await (i % 2 ? a : b)
        .request()
        .post('/api/bag/comments')
        .set('Authorization', `Bearer ${writer}`)
        .send({ content: `Followed comment ${i}`, article: article.documentId })
        .expect(201);
      ids.push(res.body.data.documentId);
    }

    await Promise.all([setStatus(a, ids, 'approved'), setStatus(b, ids, 'approved')]);
    await Promise.all([setStatus(a, ids, 'rejected'), setStatus(b, ids, 'rejected')]);
    await Promise.all([setStatus(a, ids, 'approved'), setStatus(b, ids, 'approved')]);

    await Promise.all([a.stop(), b.stop()]);
    for (const follower of followers) {
      const texts = smtp.mails.filter((mail) => mail.to.includes(follower.email.toLowerCase())).map((mail) => mail.text);
      expect(texts).toHaveLength(COMMENTS);
      for (let i = 0; i < COMMENTS; i += 1) expect(texts.filter((text) => text.includes(`Followed comment ${i}`))).toHaveLength(1);
    }
  });
});
