/**
 * Following a thread, the article's comment feed and the comment webhooks (docs/comments.md#following-a-thread,
 * #comment-feed, #webhooks), over HTTP against the playground: a real SMTP server receives the follower mails and a
 * real HTTP server on 127.0.0.1, registered through the host's admin webhooks API, receives the events.
 * "No mail" and "no event" are asserted after the services' own completion signal (`idle()`), not a sleep.
 */
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { createArticle } from '../helpers/comments';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';
import { startReceiver } from '../helpers/webhooks';

const PUBLIC_URL = 'https://cms.example.test';
const SITE = 'https://www.example.test';
const UA = 'FollowTestBrowser/1.0 (ua-marker-91c2)';
const EVENTS = ['bag-comment.created', 'bag-comment.approved', 'bag-comment.rejected', 'bag-comment.reported', 'bag-comment.deleted'];

interface Idle {
  idle(): Promise<void>;
}

describe('following threads, the comment feed and comment webhooks', () => {
  let smtp: TestSmtp;
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    // A first start, for the grants made on it.
    app = await setupStrapi({
      fresh: true,
      env: smtp.env,
      config: {
        site: { url: SITE, paths: { article: '/articles/{slug}' } },
        comments: { notifications: { publicUrl: PUBLIC_URL } },
        rateLimit: { comment: { interval: '1m', max: 100_000 } },
      },
    });
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
    await smtp.stop();
  });

  const settle = async () => {
    await (app.strapi.plugin('cms-plugin-bag').service('comment-events') as Idle).idle();
    await (app.strapi.plugin('cms-plugin-bag').service('comment-followers') as Idle).idle();
  };
  const post = (body: Record<string, unknown>, token?: string) => {
    const req = app.request().post('/api/bag/comments').set('User-Agent', UA);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send(body);
  };
  const setStatus = (documentIds: string[], status: string) =>
    app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status }).expect(200);
  const subscription = (method: 'get' | 'post' | 'delete', article: string | number, token?: string) => {
    const req = app.request()[method](`/api/bag/articles/${article}/subscription`);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req;
  };
  const mailsTo = (user: TestUser) => smtp.mails.filter((mail) => mail.to.includes(user.email.toLowerCase()));

  describe('subscription routes', () => {
    it('answers { subscribed } for GET, POST and DELETE, idempotently, by documentId or numeric id', async () => {
      const article = await createArticle(app.strapi);
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      expect((await subscription('get', article.documentId, jwt).expect(200)).body).toEqual({ subscribed: false });
      expect((await subscription('post', article.documentId, jwt).expect(200)).body).toEqual({ subscribed: true });
      expect((await subscription('post', article.id as number, jwt).expect(200)).body).toEqual({ subscribed: true });
      expect((await subscription('get', article.id as number, jwt).expect(200)).body).toEqual({ subscribed: true });
      const other = jwtFor(app.strapi, await createUser(app.strapi));
      expect((await subscription('get', article.documentId, other).expect(200)).body).toEqual({ subscribed: false });
      expect((await subscription('delete', article.documentId, jwt).expect(200)).body).toEqual({ subscribed: false });
      expect((await subscription('delete', article.documentId, jwt).expect(200)).body).toEqual({ subscribed: false });
      expect((await subscription('get', article.documentId, jwt).expect(200)).body).toEqual({ subscribed: false });
      expect(await app.strapi.db.query(`${PLUGIN}.comment-subscription` as never).count({ where: { subscriberId: user.id } })).toBe(0);
    });

    it('401 without a token, 404 for an unknown or unpublished article', async () => {
      const article = await createArticle(app.strapi);
      for (const method of ['get', 'post', 'delete'] as const) {
        const res = await subscription(method, article.documentId);
        expect(res.status).toBe(401);
        expect(res.body.error.name).toBe('UnauthorizedError');
      }
      const jwt = jwtFor(app.strapi, await createUser(app.strapi));
      const draft = await createArticle(app.strapi, { publish: false });
      for (const id of ['nosucharticle000000000000', draft.documentId]) {
        const res = await subscription('post', id, jwt).expect(404);
        expect(res.body.error.message).toBe('Article not found');
      }
    });

    it('grants the new actions to Public and Authenticated on first start', async () => {
      for (const type of ['public', 'authenticated']) {
        const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type } });
        const actions = (await app.strapi.db.query('plugin::users-permissions.permission').findMany({ where: { role: role.id } })).map(
          (p: { action: string }) => p.action
        );
        for (const action of ['comment-follow.status', 'comment-follow.subscribe', 'comment-follow.unsubscribe', 'feed.comments']) {
          expect(actions).toContain(`${PLUGIN}.${action}`);
        }
      }
    });
  });

  describe('follower mails', () => {
    it('mails each follower once per newly approved comment, never for their own, with a one-click unsubscribe', async () => {
      const article = await createArticle(app.strapi);
      const [ada, bob, writer] = [await createUser(app.strapi), await createUser(app.strapi), await createUser(app.strapi)];
      for (const user of [ada, bob]) await subscription('post', article.documentId, jwtFor(app.strapi, user)).expect(200);

      const byWriter = (await post({ content: 'A <i>new</i> comment & more', article: article.documentId }, jwtFor(app.strapi, writer)).expect(201)).body.data;
      await settle();
      expect(mailsTo(ada)).toHaveLength(0); // pending: nothing yet

      await setStatus([byWriter.documentId], 'approved');
      const mail = await smtp.nextMail(ada.email);
      expect(mail.subject).toBe('New comment in a thread you follow');
      expect(mail.text).toContain(`${writer.username} commented on "${article.title}"`);
      expect(mail.text).toContain('A <i>new</i> comment & more');
      expect(mail.html).toContain('A &lt;i&gt;new&lt;/i&gt; comment &amp; more');
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const link = /<(https:\/\/cms\.example\.test(\/api\/bag\/comments\/unsubscribe\?token=follow\.[A-Za-z0-9._-]+))>/.exec(mail.headers['list-unsubscribe']);
      expect(link).not.toBeNull();
      for (const body of [mail.text, mail.html]) {
        expect(body).not.toContain(UA);
        expect(body).not.toContain(writer.email);
      }
      await smtp.nextMail(bob.email);

      // Approved again, rejected and approved again: still one mail each.
      await setStatus([byWriter.documentId], 'rejected');
      await setStatus([byWriter.documentId], 'approved');
      await settle();
      expect(mailsTo(ada)).toHaveLength(1);
      expect(mailsTo(bob)).toHaveLength(1);

      // Ada's own comment mails Bob only.
      const byAda = (await post({ content: 'My own words', article: article.documentId }, jwtFor(app.strapi, ada)).expect(201)).body.data;
      await setStatus([byAda.documentId], 'approved');
      expect((await smtp.nextMail(bob.email)).text).toContain('My own words');
      await settle();
      expect(mailsTo(ada)).toHaveLength(1);

      // One click from the mail stops Ada's follower mails; Bob's keep coming.
      const res = await app.request().post(link![2]).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(res.body).toEqual({ data: { unsubscribed: true, kind: 'follow' } });
      const guest = (await post({ content: 'A guest speaks', article: article.documentId }).expect(201)).body.data;
      await setStatus([guest.documentId], 'approved');
      expect((await smtp.nextMail(bob.email)).text).toContain('A guest commented');
      await settle();
      expect(mailsTo(ada)).toHaveLength(1);
    });

    it('mails nobody who left the thread, nor for a comment hidden under an unapproved parent', async () => {
      const article = await createArticle(app.strapi);
      const follower = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, follower);
      await subscription('post', article.documentId, jwt).expect(200);
      const root = (await post({ content: 'Root', article: article.documentId }).expect(201)).body.data;
      await setStatus([root.documentId], 'approved');
      await smtp.nextMail(follower.email);
      const reply = (await post({ content: 'Hidden reply', article: article.documentId, parent: root.documentId }).expect(201)).body.data;
      await setStatus([root.documentId], 'rejected');
      await setStatus([reply.documentId], 'approved');
      await settle();
      expect(mailsTo(follower)).toHaveLength(1);

      await subscription('delete', article.documentId, jwt).expect(200);
      const later = (await post({ content: 'After leaving', article: article.documentId }).expect(201)).body.data;
      await setStatus([later.documentId], 'approved');
      await settle();
      expect(mailsTo(follower)).toHaveLength(1);
    });

    it('mails at once for a comment approved on submission and for an admin reply', async () => {
      const article = await createArticle(app.strapi);
      const follower = await createUser(app.strapi);
      await subscription('post', article.documentId, jwtFor(app.strapi, follower)).expect(200);
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      await settings.update({ comments: { autoApprove: true } });
      let root: { documentId: string };
      try {
        root = (await post({ content: 'Auto-approved', article: article.documentId }).expect(201)).body.data;
      } finally {
        await settings.update({ comments: { autoApprove: false } });
      }
      expect((await smtp.nextMail(follower.email)).text).toContain('Auto-approved');
      await app.request().post(`/cms-plugin-bag/comments/${root.documentId}/reply`).set('Authorization', `Bearer ${admin}`).send({ content: 'From the site' }).expect(200);
      expect((await smtp.nextMail(follower.email)).text).toContain('The site commented');
    });
  });

  describe('comment feed', () => {
    it('is RSS 2.0 of the approved, visible comments, newest first, linked to the article on the site', async () => {
      const article = await createArticle(app.strapi);
      const user = await createUser(app.strapi);
      const first = (await post({ content: 'First <b>bold</b> & co', article: article.documentId }, jwtFor(app.strapi, user)).expect(201)).body.data;
      await setStatus([first.documentId], 'approved');
      const second = (await post({ content: 'Second', article: article.documentId, parent: first.documentId }).expect(201)).body.data;
      const pending = (await post({ content: 'Still pending', article: article.documentId }).expect(201)).body.data;
      await setStatus([second.documentId], 'approved');

      const res = await app.request().get(`/api/bag/articles/${article.documentId}/comments.rss`).set('Host', 'evil.example').expect(200);
      expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
      expect(res.headers.etag).toBeTruthy();
      const body = res.text;
      expect(body).toContain('<rss version="2.0"');
      expect(body).not.toContain('evil.example');
      const items = body.split('<item>').slice(1);
      expect(items).toHaveLength(2);
      expect(items[0]).toContain(`<link>${SITE}/articles/${article.slug}#comment-${second.documentId}</link>`);
      expect(items[0]).toContain('<dc:creator>A guest</dc:creator>');
      expect(items[1]).toContain(`<dc:creator>${user.username}</dc:creator>`);
      // A feed reader renders the description as HTML: the commenter's `<b>` arrives as text inside the sanitized rendering.
      expect(items[1]).toContain('<description>&lt;p&gt;First &amp;lt;b&amp;gt;bold&amp;lt;/b&amp;gt; &amp;amp; co&lt;/p&gt;\n</description>');
      expect(body).not.toContain('Still pending');
      for (const secret of [UA, user.email, '127.0.0.1']) expect(body).not.toContain(secret);

      // Cached like every read: 304 on a match, and the next approval shows at once.
      await app.request().get(`/api/bag/articles/${article.documentId}/comments.rss`).set('If-None-Match', res.headers.etag).expect(304);
      await setStatus([pending.documentId], 'approved');
      const after = await app.request().get(`/api/bag/articles/${article.documentId}/comments.rss`).set('If-None-Match', res.headers.etag).expect(200);
      expect(after.text).toContain('Still pending');
    });

    it("gives feed readers the comment's sanitized Markdown rendering as its HTML, never the commenter's markup", async () => {
      const article = await createArticle(app.strapi);
      const content = 'Hi <b>bold</b> <script>alert(1)</script> **strong** [x](javascript:alert(1)) <img src=x onerror=alert(1)>';
      const comment = (await post({ content, article: article.documentId }).expect(201)).body.data;
      await setStatus([comment.documentId], 'approved');
      const body = (await app.request().get(`/api/bag/articles/${article.documentId}/comments.rss`).expect(200)).text;
      const description = /<description>([^<]*)<\/description>\n<dc:creator>/.exec(body)![1];
      // What a feed reader hands to its HTML renderer: the XML text, unescaped once.
      const html = description.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
      expect(html).toContain('<strong>strong</strong>');
      expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
      for (const tag of [/<b>/i, /<script/i, /<img/i, /href="javascript/i]) expect(html).not.toMatch(tag);
      const thread = (await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200)).body.data;
      expect(html).toBe(thread[0].contentHtml);
    });

    it('keeps the 50 newest; 404 for an unknown article', async () => {
      const article = await createArticle(app.strapi);
      const ids: string[] = [];
      for (let i = 0; i < 52; i += 1) ids.push((await post({ content: `Comment number ${i}.`, article: article.documentId }).expect(201)).body.data.documentId);
      await setStatus(ids, 'approved');
      const body = (await app.request().get(`/api/bag/articles/${article.id}/comments.rss`).expect(200)).text;
      expect(body.split('<item>')).toHaveLength(51);
      expect(body).toContain('Comment number 51.');
      expect(body).not.toContain('Comment number 1.');
      const missing = await app.request().get('/api/bag/articles/nosucharticle000000000000/comments.rss').expect(404);
      expect(missing.body.error.message).toBe('Article not found');
    });
  });

  describe('webhooks', () => {
    it("are offered by the host's webhook store and delivered by its runner, payload without IP, User-Agent or e-mail", async () => {
      const allowed = app.strapi.get('webhookStore').allowedEvents as Map<string, string>;
      expect([...allowed.values()]).toEqual(expect.arrayContaining(EVENTS));

      const receiver = await startReceiver();
      try {
        const created = await app.request()
          .post('/admin/webhooks')
          .set('Authorization', `Bearer ${admin}`)
          .send({ name: 'comments', url: receiver.url, headers: { 'X-Secret': 'hook-secret' }, events: EVENTS })
          .expect(201);
        expect(created.body.data.events).toEqual(EVENTS);
        // The host refuses an event nobody registered, so the acceptance above is the store's.
        await app.request()
          .post('/admin/webhooks')
          .set('Authorization', `Bearer ${admin}`)
          .send({ name: 'bad', url: receiver.url, headers: {}, events: ['bag-comment.unknown'] })
          .expect(400);

        const article = await createArticle(app.strapi);
        const author = await createUser(app.strapi);
        const root = (await post({ content: 'Root for hooks', article: article.documentId }, jwtFor(app.strapi, author)).expect(201)).body.data;
        await setStatus([root.documentId], 'approved');
        const reply = (await post({ content: 'Reply for hooks', article: article.documentId, parent: root.documentId }).expect(201)).body.data;
        await setStatus([reply.documentId], 'rejected');
        await setStatus([reply.documentId], 'rejected'); // no change: no second event
        const reporter = jwtFor(app.strapi, await createUser(app.strapi));
        await app.request().post(`/api/bag/comments/${root.documentId}/report`).set('Authorization', `Bearer ${reporter}`).send({ reason: 'spam' }).expect(200);
        await app.request().post(`/api/bag/comments/${root.documentId}/report`).set('Authorization', `Bearer ${reporter}`).send({ reason: 'spam' }).expect(200);
        await app.strapi.documents(`${PLUGIN}.comment` as never).delete({ documentId: reply.documentId } as never);
        await settle();

        const expected = [
          ['bag-comment.created', root.documentId],
          ['bag-comment.approved', root.documentId],
          ['bag-comment.created', reply.documentId],
          ['bag-comment.rejected', reply.documentId],
          ['bag-comment.reported', root.documentId],
          ['bag-comment.deleted', reply.documentId],
        ];
        await receiver.waitFor((received) => received.length >= expected.length);
        // The host's runner delivers from a queue of 5 workers, so deliveries may overtake one another.
        const got = receiver.received.map((d) => [d.body.event, d.body.comment.documentId]);
        expect(got).toHaveLength(expected.length);
        expect(got).toEqual(expect.arrayContaining(expected));
        const delivery = (event: string, documentId: string) =>
          receiver.received.find((d) => d.body.event === event && d.body.comment.documentId === documentId)!;

        const approved = delivery('bag-comment.approved', root.documentId);
        expect(approved.headers['x-strapi-event']).toBe('bag-comment.approved');
        expect(approved.headers['x-secret']).toBe('hook-secret');
        expect(Object.keys(approved.body).sort()).toEqual(['comment', 'createdAt', 'event']);
        expect(approved.body.comment).toEqual({
          documentId: root.documentId,
          content: 'Root for hooks',
          status: 'approved',
          createdAt: root.createdAt,
          article: { documentId: article.documentId, slug: article.slug, title: article.title },
          author: { documentId: author.documentId, username: author.username },
          parent: null,
        });
        expect(delivery('bag-comment.rejected', reply.documentId).body.comment).toMatchObject({ status: 'rejected', author: null, parent: root.documentId });
        expect(delivery('bag-comment.deleted', reply.documentId).body.comment).toMatchObject({ content: 'Reply for hooks', status: 'rejected' });
        const all = JSON.stringify(receiver.received.map((d) => d.body));
        for (const secret of [UA, author.email, '127.0.0.1', '"ip"', 'userAgent', 'email']) expect(all).not.toContain(secret);
      } finally {
        await receiver.stop();
      }
    });
  });
});
