/**
 * Newsletters (docs/newsletters.md) over HTTP against the playground, with a real SMTP server receiving the mails:
 * the public list, subscribing with double opt-in (the same answer whatever the address), the mailed links, the
 * account's choices, the admin sends and their delivery in batches, one-click unsubscription between batches.
 * A send's end is waited for by reading its status through the admin route (a bounded loop), never a sleep.
 */
import { adminToken, createDocument, createUser, jwtFor } from '../helpers/fixtures';
import { adminTokenWithRole, createArticle } from '../helpers/comments';
import { startSmtp, type Mail, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';
import { unsubscribeToken } from '../../server/src/features/newsletters/links';

const SITE = 'https://www.example.test';
const SUBSCRIBER = `${PLUGIN}.newsletter-subscriber`;
const RECIPIENT = `${PLUGIN}.newsletter-recipient`;
const NEWSLETTER = `${PLUGIN}.newsletter`;

let counter = 0;
const address = (name = 'reader') => `${name}-${(counter += 1)}-${Date.now().toString(36)}@example.test`;

describe('newsletters', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      fresh: true,
      env: smtp.env,
      config: {
        site: { url: SITE },
        newsletters: { batchSize: 2 },
        rateLimit: { sendCode: { interval: '1h', max: 100_000 } },
      },
    });
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
    await smtp.stop();
  });

  const settings = () => app.strapi.plugin('cms-plugin-bag').service('settings');
  const subscriptions = () => app.strapi.plugin('cms-plugin-bag').service('newsletter-subscriptions') as { idle(): Promise<void> };
  const newsletter = async (extra: Record<string, unknown> = {}) => {
    const slug = `letter-${(counter += 1)}-${Date.now().toString(36)}`;
    return createDocument(app.strapi, NEWSLETTER, { name: `Letter ${counter}`, slug, description: 'Weekly news', ...extra });
  };
  const subscribe = (body: unknown, token?: string) => {
    const req = app.request().post('/api/bag/newsletters/subscribe');
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send(body as object);
  };
  const tokenOf = (mail: Mail, route: 'confirm' | 'unsubscribe') => {
    const match = new RegExp(`/api/bag/newsletters/${route}\\?token=([^\\s"<>&]+)`).exec(mail.text);
    if (!match) throw new Error(`no ${route} link in the mail`);
    return match[1];
  };
  const adminPost = (path: string, body: object, token = admin) => app.request().post(`/cms-plugin-bag${path}`).set('Authorization', `Bearer ${token}`).send(body);
  const adminGet = (path: string, token = admin) => app.request().get(`/cms-plugin-bag${path}`).set('Authorization', `Bearer ${token}`);
  /** Reads the send until `done` (or cancelled), at most 20 s. */
  const finished = async (id: number) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { body } = await adminGet(`/sends/${id}`).expect(200);
      if (body.data.status === 'done' || body.data.status === 'cancelled') return body.data;
      if (Date.now() > deadline) throw new Error(`send ${id} still ${body.data.status}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** Subscribes `email` by address and confirms through the mailed link; returns the confirmation mail. */
  const confirmed = async (slug: string, email: string, locale?: string) => {
    await subscribe({ newsletters: [slug], email, ...(locale ? { locale } : {}) }).expect(202);
    const mail = await smtp.nextMail(email);
    await app.request().post('/api/bag/newsletters/confirm').send({ token: tokenOf(mail, 'confirm') }).expect(200);
    return mail;
  };
  const expectError = (res: { status: number; body: { error?: { message?: string } } }, status: number, message: string) => {
    expect(res.status).toBe(status);
    expect(res.body.error?.message).toBe(message);
  };

  describe('the public list', () => {
    it('GET /api/bag/newsletters lists documentId, slug, name, description and categories', async () => {
      const category = await createDocument(app.strapi, `${PLUGIN}.category`, { title: 'Science', slug: `science-${Date.now()}` });
      const letter = await newsletter({ categories: [category.documentId] });
      const res = await app.request().get('/api/bag/newsletters').expect(200);
      const item = res.body.data.find((n: { documentId: string }) => n.documentId === letter.documentId);
      expect(item).toEqual({ documentId: letter.documentId, slug: letter.slug, name: letter.name, description: 'Weekly news', categories: [{ slug: category.slug, title: 'Science' }] });
    });
  });

  describe('subscribing by address', () => {
    it('answers 202 the same whether the address is new, waiting or subscribed, and mails one confirmation link', async () => {
      const letter = await newsletter();
      const email = address();
      const first = await subscribe({ newsletters: [letter.slug], email }).expect(202);
      expect(first.body).toEqual({ message: expect.any(String) });
      const mail = await smtp.nextMail(email);
      expect(mail.subject).toBe('Confirm your subscription');
      expect(mail.text).toContain('/api/bag/newsletters/confirm?token=');
      // Waiting: the same answer, and no second mail within the resend interval.
      const again = await subscribe({ newsletters: [letter.slug], email }).expect(202);
      expect(again.body).toEqual(first.body);
      const token = tokenOf(mail, 'confirm');
      await app.request().post('/api/bag/newsletters/confirm').send({ token }).expect(200);
      // Subscribed: the same answer again.
      const known = await subscribe({ newsletters: [letter.slug], email }).expect(202);
      expect(known.body).toEqual(first.body);
      await subscriptions().idle();
      expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
    });

    it('the confirmation link is on the server URL; the GET page changes nothing, the POST activates once', async () => {
      const letter = await newsletter();
      const email = address();
      await subscribe({ newsletters: [letter.slug], email }).expect(202);
      const mail = await smtp.nextMail(email);
      expect(mail.text).toMatch(/http:\/\/(localhost|127\.0\.0\.1|0\.0\.0\.0):\d+\/api\/bag\/newsletters\/confirm\?token=/);
      const token = tokenOf(mail, 'confirm');
      const page = await app.request().get(`/api/bag/newsletters/confirm?token=${token}`).expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('<form method="post">');
      const row = await app.strapi.db.query(SUBSCRIBER).findOne({ where: { email, newsletter: letter.documentId } });
      expect(row.state).toBe('pending');
      const done = await app.request().post(`/api/bag/newsletters/confirm?token=${token}`).expect(200);
      expect(done.body).toEqual({ message: expect.any(String) });
      expect((await app.strapi.db.query(SUBSCRIBER).findOne({ where: { id: row.id } })).state).toBe('active');
      expectError(await app.request().post('/api/bag/newsletters/confirm').send({ token }), 400, 'Invalid or expired link');
      expectError(await app.request().post('/api/bag/newsletters/confirm').send({ token: 'A'.repeat(43) }), 400, 'Invalid or expired link');
      expectError(await app.request().get('/api/bag/newsletters/confirm?token=forged'), 400, 'Invalid or expired link');
    });

    it('an expired confirmation link is refused', async () => {
      const letter = await newsletter();
      const email = address();
      await subscribe({ newsletters: [letter.slug], email }).expect(202);
      const token = tokenOf(await smtp.nextMail(email), 'confirm');
      await app.strapi.db.query(SUBSCRIBER).updateMany({ where: { email }, data: { confirmExpiresAt: Date.now() - 1000 } });
      expectError(await app.request().post('/api/bag/newsletters/confirm').send({ token }), 400, 'Invalid or expired link');
    });

    it('keeps no token in clear text: the confirmation as a hash, the unsubscribe link not at all', async () => {
      const letter = await newsletter();
      const email = address();
      const mail = await confirmed(letter.slug, email);
      const token = tokenOf(mail, 'confirm');
      await subscribe({ newsletters: [letter.slug], email: address() }).expect(202);
      const rows = await app.strapi.db.query(SUBSCRIBER).findMany({});
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(rows.some((r: { confirmHash: string | null }) => r.confirmHash)).toBe(true);
    });

    it('refuses bad input: unknown slug 404, email missing or not an address 400 naming it, no list 400', async () => {
      const letter = await newsletter();
      expectError(await subscribe({ newsletters: ['no-such-letter'], email: address() }), 404, 'Newsletter not found');
      const missing = await subscribe({ newsletters: [letter.slug] });
      expect(missing.status).toBe(400);
      expect(missing.body.error.name).toBe('ValidationError');
      expect(JSON.stringify(missing.body.error)).toContain('email');
      const bad = await subscribe({ newsletters: [letter.slug], email: 'not-an-address' });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body.error.details)).toContain('email');
      expect((await subscribe({ email: address() })).status).toBe(400);
      expect((await subscribe({ newsletters: 'x', email: address() })).status).toBe(400);
      expect((await subscribe({ newsletters: [letter.slug], email: address(), locale: 'xx-nope' })).status).toBe(400);
    });
  });

  describe("the account's subscriptions", () => {
    it('with a Bearer token: 200 and active at once; GET and PUT set exactly the list; without a token 401; export and deletion follow', async () => {
      const a = await newsletter();
      const b = await newsletter();
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const res = await subscribe({ newsletters: [a.slug] }, jwt).expect(200);
      expect(res.body).toEqual({ data: [{ newsletter: a.slug, locale: 'en' }] });
      const put = await app.request().put('/api/bag/newsletters/subscriptions').set('Authorization', `Bearer ${jwt}`).send({ newsletters: [b.slug] }).expect(200);
      expect(put.body).toEqual({ data: [{ newsletter: b.slug, locale: 'en' }] });
      const get = await app.request().get('/api/bag/newsletters/subscriptions').set('Authorization', `Bearer ${jwt}`).expect(200);
      expect(get.body).toEqual(put.body);
      expect((await app.request().get('/api/bag/newsletters/subscriptions')).status).toBe(401);
      expect((await app.request().put('/api/bag/newsletters/subscriptions').send({ newsletters: [] })).status).toBe(401);
      expectError(
        await app.request().put('/api/bag/newsletters/subscriptions').set('Authorization', `Bearer ${jwt}`).send({ newsletters: ['nope-x'] }),
        404,
        'Newsletter not found'
      );
      // The account's export lists them.
      const exported = await app.request().get('/api/cms-plugin-bag/auth/me/export').set('Authorization', `Bearer ${jwt}`).expect(200);
      expect(JSON.parse(exported.text).subscriptions).toEqual([{ newsletter: b.slug, locale: 'en' }]);
      // The account deleted: its subscriptions go with it.
      await app.strapi.plugin('users-permissions').service('user').remove({ id: user.id });
      expect(await app.strapi.db.query(SUBSCRIBER).count({ where: { userId: user.id } })).toBe(0);
    });
  });

  describe('sends', () => {
    it('mails every active subscriber once, with HTML and text parts and the list headers; 409 the second time', async () => {
      const letter = await newsletter();
      const readers = [address(), address(), address()];
      for (const email of readers) await confirmed(letter.slug, email);
      const waiting = address();
      await subscribe({ newsletters: [letter.slug], email: waiting }).expect(202);
      const member = await createUser(app.strapi);
      await subscribe({ newsletters: [letter.slug] }, jwtFor(app.strapi, member)).expect(200);
      const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Big news', slug: `big-news-${Date.now()}`, content: 'Hello **world** <script>x</script>' });

      const started = await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }).expect(201);
      expect(started.body.data).toEqual({ id: expect.any(Number), status: 'queued', total: 4 });
      const send = await finished(started.body.data.id);
      expect(send).toMatchObject({ status: 'done', total: 4, sent: 4, failed: 0, newsletter: { documentId: letter.documentId }, article: { documentId: article.documentId } });
      expect(send.finishedAt).toEqual(expect.any(String));

      for (const email of [...readers, member.email.toLowerCase()]) {
        const mails = smtp.mails.filter((m) => m.to.includes(email) && m.subject === 'Big news');
        expect(mails).toHaveLength(1);
        const [mail] = mails;
        expect(mail.html).toContain('<strong>world</strong>');
        expect(mail.html).not.toContain('<script>');
        expect(mail.html).toContain(`${SITE}/articles/${article.slug}`);
        expect(mail.text).toContain(`${SITE}/articles/${article.slug}`);
        expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/[^>]+\/api\/bag\/newsletters\/unsubscribe\?token=[^>]+>$/);
        expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
        expect(mail.headers['list-id']).toBe(`"${letter.name}" <${letter.slug}.newsletters.www.example.test>`);
      }
      expect(smtp.mails.filter((m) => m.to.includes(waiting) && m.subject === 'Big news')).toHaveLength(0);

      expectError(await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }), 409, 'Already sent');
      const list = await adminGet(`/sends?article=${article.documentId}`).expect(200);
      expect(list.body.data.map((s: { id: number }) => s.id)).toEqual([send.id]);
      const counts = await adminGet(`/newsletters/${letter.documentId}/subscribers`).expect(200);
      expect(counts.body.data).toEqual([
        { locale: 'en', state: 'active', count: 4 },
        { locale: 'en', state: 'pending', count: 1 },
      ]);
    });

    it('a test send mails one address and records nothing', async () => {
      const letter = await newsletter();
      const article = await createArticle(app.strapi);
      const to = address('editor');
      const res = await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId, test: to }).expect(201);
      expect(res.body.data).toEqual({ id: null, status: 'done', total: 1 });
      const mail = await smtp.nextMail(to);
      expect(mail.subject).toBe(article.title);
      expect((await adminGet(`/sends?article=${article.documentId}`).expect(200)).body.data).toEqual([]);
    });

    it('refuses: no permission 403, unknown newsletter or article 404, bad body 400, no site.url 503', async () => {
      const letter = await newsletter();
      const article = await createArticle(app.strapi);
      const editor = await adminTokenWithRole(app, 'strapi-editor');
      expect((await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }, editor)).status).toBe(403);
      expect((await adminGet('/sends', editor)).status).toBe(403);
      expectError(await adminPost('/newsletters/nope/sends', { article: article.documentId }), 404, 'Newsletter not found');
      expectError(await adminPost(`/newsletters/${letter.documentId}/sends`, { article: 'nope' }), 404, 'Article not found');
      expect((await adminPost(`/newsletters/${letter.documentId}/sends`, {})).status).toBe(400);
      expect((await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId, test: 'not-an-address' })).status).toBe(400);
      expect((await adminGet('/sends/abc')).status).toBe(400);
      expect((await adminGet('/sends/999999')).status).toBe(404);
      const file = settings().file();
      const spy = jest.spyOn(settings(), 'get').mockImplementation(async () => ({ ...file, site: { ...file.site, url: undefined } }));
      try {
        expectError(await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }), 503, 'Site URL is not configured');
      } finally {
        spy.mockRestore();
      }
    });

    it('newsletters.enabled and doubleOptIn saved in Settings → CMS Bag apply at once: off, the routes answer 404 Newsletters are disabled; without double opt-in an address is active at once', async () => {
      const saveSettings = (newsletters: Record<string, boolean>) =>
        app.request().put('/cms-plugin-bag/settings').set('Authorization', `Bearer ${admin}`).send({ newsletters }).expect(200);
      const letter = await newsletter();
      try {
        const saved = await saveSettings({ enabled: false });
        expect(saved.body.data.settings.newsletters).toEqual({ enabled: false, doubleOptIn: true });
        expectError(await app.request().get('/api/bag/newsletters'), 404, 'Newsletters are disabled');
        expectError(await subscribe({ newsletters: [letter.slug], email: address() }), 404, 'Newsletters are disabled');

        await saveSettings({ enabled: true, doubleOptIn: false });
        await app.request().get('/api/bag/newsletters').expect(200);
        const email = address('at-once');
        await subscribe({ newsletters: [letter.slug], email }).expect(202);
        const counts = await adminGet(`/newsletters/${letter.documentId}/subscribers`).expect(200);
        expect(counts.body.data).toEqual([{ locale: 'en', state: 'active', count: 1 }]);
      } finally {
        await saveSettings({ enabled: true, doubleOptIn: true });
      }
    });

    it('a refused recipient is tried twice more, then counted failed', async () => {
      const letter = await newsletter();
      const email = address();
      await confirmed(letter.slug, email);
      const article = await createArticle(app.strapi);
      smtp.refuse(true);
      try {
        const started = await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }).expect(201);
        const send = await finished(started.body.data.id);
        expect(send).toMatchObject({ status: 'done', total: 1, sent: 0, failed: 1 });
        const row = await app.strapi.db.query(RECIPIENT).findOne({ where: { sendId: send.id } });
        expect(row).toMatchObject({ state: 'failed', tries: 3 });
      } finally {
        smtp.refuse(false);
      }
    });
  });

  describe('unsubscribing', () => {
    it('GET shows a page and changes nothing; a one-click POST unsubscribes, again 200; a forged token 400', async () => {
      const letter = await newsletter();
      const email = address();
      await confirmed(letter.slug, email);
      const article = await createArticle(app.strapi);
      const started = await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }).expect(201);
      await finished(started.body.data.id);
      const mail = await smtp.nextMail(email);
      const token = tokenOf(mail, 'unsubscribe');
      const page = await app.request().get(`/api/bag/newsletters/unsubscribe?token=${token}`).expect(200);
      expect(page.text).toContain('List-Unsubscribe');
      expect((await app.strapi.db.query(SUBSCRIBER).findOne({ where: { email } })).state).toBe('active');
      const one = await app.request().post(`/api/bag/newsletters/unsubscribe?token=${token}`).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(one.body).toEqual({ message: expect.any(String) });
      expect((await app.strapi.db.query(SUBSCRIBER).findOne({ where: { email } })).state).toBe('unsubscribed');
      await app.request().post('/api/bag/newsletters/unsubscribe').send({ token }).expect(200);
      expectError(await app.request().post('/api/bag/newsletters/unsubscribe').send({ token: `${token.split('.')[0]}.${'0'.repeat(64)}` }), 400, 'Invalid or expired link');
      expectError(await app.request().get('/api/bag/newsletters/unsubscribe?token=1.abc'), 400, 'Invalid or expired link');
    });

    it('a one-click unsubscribe while a batch is with the mail server: no mail of a later batch reaches the address', async () => {
      const letter = await newsletter();
      const readers = [address(), address(), address(), address()];
      for (const email of readers) await confirmed(letter.slug, email);
      const article = await createArticle(app.strapi);
      // The last reader's unsubscribe token, as every mail to them carries it (they are in the second batch).
      const lastRow = await app.strapi.db.query(SUBSCRIBER).findOne({ where: { email: readers[3] } });
      smtp.hold();
      let started;
      try {
        started = await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }).expect(201);
        // The first batch (two readers, batchSize 2) waits on the mail server.
        const deadline = Date.now() + 10_000;
        while (smtp.held() === 0) {
          if (Date.now() > deadline) throw new Error('no mail reached the server');
          await new Promise((resolve) => setImmediate(resolve));
        }
        const token = unsubscribeToken(app.strapi, lastRow.id);
        await app.request().post(`/api/bag/newsletters/unsubscribe?token=${token}`).type('form').send('List-Unsubscribe=One-Click').expect(200);
      } finally {
        smtp.release();
      }
      const send = await finished(started.body.data.id);
      expect(send).toMatchObject({ status: 'done', total: 4, sent: 3, failed: 0 });
      expect(smtp.mails.filter((m) => m.to.includes(readers[3]) && m.subject === article.title)).toHaveLength(0);
      for (const email of readers.slice(0, 3)) expect(smtp.mails.filter((m) => m.to.includes(email) && m.subject === article.title)).toHaveLength(1);
    });

    it('a cancelled send mails no later batch', async () => {
      const letter = await newsletter();
      const readers = [address(), address(), address(), address()];
      for (const email of readers) await confirmed(letter.slug, email);
      const article = await createArticle(app.strapi);
      smtp.hold();
      let id = 0;
      try {
        id = (await adminPost(`/newsletters/${letter.documentId}/sends`, { article: article.documentId }).expect(201)).body.data.id;
        const deadline = Date.now() + 10_000;
        while (smtp.held() === 0) {
          if (Date.now() > deadline) throw new Error('no mail reached the server');
          await new Promise((resolve) => setImmediate(resolve));
        }
        const cancelled = await adminPost(`/sends/${id}/cancel`, {}).expect(200);
        expect(cancelled.body.data.status).toBe('cancelled');
      } finally {
        smtp.release();
      }
      const send = await finished(id);
      expect(send.status).toBe('cancelled');
      const mailed = readers.filter((email) => smtp.mails.some((m) => m.to.includes(email) && m.subject === article.title));
      expect(mailed.length).toBeLessThanOrEqual(2);
    });
  });

  describe('send on publish', () => {
    it("queues a send on an article's first publication in the newsletter's category, never again", async () => {
      const category = await createDocument(app.strapi, `${PLUGIN}.category`, { title: 'Auto', slug: `auto-${Date.now()}` });
      const letter = await newsletter({ sendOnPublish: true, categories: [category.documentId] });
      const email = address();
      await confirmed(letter.slug, email);
      const other = await createArticle(app.strapi);
      const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Auto news', slug: `auto-news-${Date.now()}`, category: category.documentId });
      const deadline = Date.now() + 10_000;
      let sends: Array<{ id: number; article: { documentId: string } }> = [];
      while (sends.length === 0) {
        if (Date.now() > deadline) throw new Error('no send queued on publication');
        sends = (await adminGet(`/sends?newsletter=${letter.documentId}`).expect(200)).body.data;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(sends.map((s) => s.article.documentId)).toEqual([article.documentId]);
      expect(sends.some((s) => s.article.documentId === other.documentId)).toBe(false);
      await finished(sends[0].id);
      expect(smtp.mails.filter((m) => m.to.includes(email) && m.subject === 'Auto news')).toHaveLength(1);
      // Unpublished and published again: not a first publication.
      const documents = app.strapi.documents(`${PLUGIN}.article` as never);
      await documents.unpublish({ documentId: article.documentId } as never);
      await documents.publish({ documentId: article.documentId } as never);
      await new Promise((resolve) => setImmediate(resolve));
      expect((await adminGet(`/sends?newsletter=${letter.documentId}`).expect(200)).body.data).toHaveLength(1);
    });
  });
});
