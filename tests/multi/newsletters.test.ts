/**
 * Newsletter delivery with several processes on one PostgreSQL database and one real SMTP server
 * (docs/newsletters.md#delivery): every instance claims batches of the same send, and each recipient gets exactly
 * one mail; a process killed (SIGKILL) while its batch waits on the mail server loses no recipient: its batch is
 * taken over once the lease has run out. The send's end is read from the admin route in a bounded loop.
 */
import { adminToken, createDocument } from '../helpers/fixtures';
import { createArticle } from '../helpers/comments';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, type TestApp } from '../helpers/strapi';

const RECIPIENTS = 60;
const BATCH = 5;
const CONFIG = { site: { url: 'https://www.example.test' }, newsletters: { batchSize: BATCH } };

describe('newsletter delivery on several instances', () => {
  let setup: TestApp;
  let smtp: TestSmtp;
  let a: Instance;
  let b: Instance;
  let admin: string;
  let instances: TwoInstances;
  let letter: { documentId: string };
  const addresses = Array.from({ length: RECIPIENTS }, (_, i) => `multi-${i}@example.test`);

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
    letter = await createDocument(setup.strapi, `${PLUGIN}.newsletter`, { name: 'Multi', slug: 'multi' });
    await setup.strapi.db
      .query(`${PLUGIN}.newsletter-subscriber` as never)
      .createMany({ data: addresses.map((email) => ({ newsletter: letter.documentId, email, locale: 'en', state: 'active' })) });
  }, 240_000);
  afterAll(async () => {
    await instances?.stop();
    await smtp?.stop();
  });

  const finished = async (instance: Instance, id: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await instance.request().get(`/cms-plugin-bag/sends/${id}`).set('Authorization', `Bearer ${admin}`).expect(200);
      if (body.data.status === 'done') return body.data;
      if (Date.now() > deadline) throw new Error(`send ${id} still ${body.data.status} after ${timeoutMs} ms: ${JSON.stringify(body.data)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const mailsPerAddress = (subject: string) => {
    const counts = new Map(addresses.map((address) => [address, 0]));
    for (const mail of smtp.mails.filter((m) => m.subject === subject)) for (const to of mail.to) counts.set(to, (counts.get(to) ?? 0) + 1);
    return [...counts.values()];
  };
  const start = async (instance: Instance, article: string) =>
    (await instance.request().post(`/cms-plugin-bag/newsletters/${letter.documentId}/sends`).set('Authorization', `Bearer ${admin}`).send({ article }).expect(201)).body
      .data as { id: number; total: number };

  it('share one send: every recipient mailed once (0 duplicates, 0 misses)', async () => {
    const article = await createArticle(setup.strapi);
    const send = await start(a, article.documentId);
    expect(send.total).toBe(RECIPIENTS);
    const done = await finished(b, send.id, 60_000);
    expect(done).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
    const counts = mailsPerAddress(article.title);
    expect(counts.filter((n) => n === 0)).toHaveLength(0);
    expect(counts.filter((n) => n > 1)).toHaveLength(0);
  }, 120_000);

  it('one killed while its batch waits on the mail server: the batch is taken over, no recipient lost', async () => {
    // Only A and B deliver now, so both hold a batch when two mails wait.
    await setup.strapi.plugin('cms-plugin-bag').service('newsletter-delivery').stop();
    const article = await createArticle(setup.strapi);
    smtp.hold();
    let id = 0;
    try {
      id = (await start(a, article.documentId)).id;
      const deadline = Date.now() + 20_000;
      while (smtp.held() < 2) {
        if (Date.now() > deadline) throw new Error(`only ${smtp.held()} mail(s) waiting on the server`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await a.kill();
    } finally {
      smtp.release();
    }
    // B finishes its batches, then takes A's over when its one-minute lease has run out.
    const done = await finished(b, id, 100_000);
    expect(done).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
    const counts = mailsPerAddress(article.title);
    expect(counts.filter((n) => n === 0)).toHaveLength(0);
    // A second copy only for a mail accepted before the process died and not yet recorded: at most one batch of it.
    expect(counts.filter((n) => n > 1).length).toBeLessThanOrEqual(BATCH);
  }, 180_000);
});
