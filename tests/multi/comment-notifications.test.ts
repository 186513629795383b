/**
 * Comment notifications with two playground processes (A, B) on one PostgreSQL database and one real SMTP server:
 * replies approved by both instances at the same moment mail each parent author once, and pending comments
 * arriving on both at once give one moderator digest. The count is taken after both processes shut down
 * gracefully: their destroy waits for every notification under way, so nothing can still arrive.
 */
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { createArticle } from '../helpers/comments';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import type { TestApp } from '../helpers/strapi';

const MODERATOR = 'moderator-multi@example.com';
const AUTHORS = 8;
const CONFIG = {
  comments: {
    notifications: {
      replies: true,
      publicUrl: 'https://cms.example.test',
      moderators: { emails: [MODERATOR], interval: '1h', minPending: 1 },
    },
  },
  rateLimit: { comment: { interval: '1m', max: 100_000 } },
};

describe('comment notifications on two instances', () => {
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

  const post = (instance: Instance, body: Record<string, unknown>, token: string) =>
    instance.request().post('/api/bag/comments').set('Authorization', `Bearer ${token}`).send(body).expect(201);
  const setStatus = (instance: Instance, documentIds: string[], status: string) =>
    instance.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status }).expect(200);

  it('mails each parent author once and the moderators one digest, whichever instance acts', async () => {
    const article = await createArticle(setup.strapi);
    const authors: TestUser[] = [];
    for (let i = 0; i < AUTHORS; i += 1) authors.push(await createUser(setup.strapi));
    const replier = await createUser(setup.strapi);

    // Pending comments arriving on both instances at once: they race for the one digest of this window.
    const roots = await Promise.all(
      authors.map((author, i) => post(i % 2 ? b : a, { content: `Root by author ${i}`, article: article.documentId }, jwtFor(setup.strapi, author)))
    );
    const rootIds = roots.map((res) => res.body.data.documentId as string);
    await setStatus(a, rootIds, 'approved');

    const replies = await Promise.all(
      roots.map((root, i) =>
        post(i % 2 ? a : b, { content: `Reply to author ${i}`, article: article.documentId, parent: root.body.data.id }, jwtFor(setup.strapi, replier))
      )
    );
    const replyIds = replies.map((res) => res.body.data.documentId as string);

    // Both instances approve every reply at the same moment, then again after a rejection.
    await Promise.all([setStatus(a, replyIds, 'approved'), setStatus(b, replyIds, 'approved')]);
    await Promise.all([setStatus(a, replyIds, 'rejected'), setStatus(b, replyIds, 'rejected')]);
    await Promise.all([setStatus(a, replyIds, 'approved'), setStatus(b, replyIds, 'approved')]);

    await Promise.all([a.stop(), b.stop()]);
    for (const [i, author] of authors.entries()) {
      const mails = smtp.mails.filter((mail) => mail.to.includes(author.email.toLowerCase()));
      expect(mails.map((mail) => mail.text.includes(`Reply to author ${i}`))).toEqual([true]);
    }
    const digests = smtp.mails.filter((mail) => mail.to.includes(MODERATOR));
    expect(digests).toHaveLength(1);
    expect(digests[0].text).toMatch(/\d+ comments? waiting for moderation/);
  });
});
