/**
 * E-mail notifications about comments (docs/comments.md#notifications), against a real SMTP server: the reply mail to the
 * parent's author (once, only when approved, never to oneself or a guest), the moderators' digest (once per
 * interval), the signed unsubscribe link, and a failing mail server that never costs a comment.
 * "No mail" is asserted after the service's own completion signal (`idle()`): every notification started by a
 * request has then been sent or has failed.
 */
import crypto from 'crypto';
import net from 'net';
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { ARTICLE, COMMENT, createArticle } from '../helpers/comments';
import { startSmtp, type Mail, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const UA = 'NotifyTestBrowser/1.0 (ua-marker-7f3e)';
const PUBLIC_URL = 'https://cms.example.test';
const LINK = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}(/api/bag/comments/unsubscribe\\?token=[A-Za-z0-9._-]+)`);

interface Notifications {
  idle(): Promise<void>;
}

const setup = (smtp: TestSmtp, notifications: Record<string, unknown>) =>
  setupStrapi({
    env: smtp.env,
    config: {
      comments: { notifications: { publicUrl: PUBLIC_URL, ...notifications } },
      rateLimit: { comment: { interval: '1m', max: 100_000 } },
    },
  });

const client = (app: TestApp, admin: string) => ({
  post(body: Record<string, unknown>, token?: string) {
    const req = app.request().post('/api/bag/comments').set('User-Agent', UA);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send(body);
  },
  setStatus: (documentIds: string[], status: string) =>
    app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status }),
  /** Resolves when every notification started so far has been sent or has failed. */
  settle: () => (app.strapi.plugin('cms-plugin-bag').service('comment-notifications') as Notifications).idle(),
});

/** RFC 8058 one-click: what a mail client POSTs to the List-Unsubscribe link, and nothing else. */
const oneClick = (app: TestApp, path: string) =>
  app.request().post(path).type('form').send('List-Unsubscribe=One-Click');

const unsubscriptions = (app: TestApp) => app.strapi.db.query(`${PLUGIN}.comment-unsubscribe` as never).count();

const linkIn = (mail: Mail): string => {
  const match = LINK.exec(mail.text);
  if (!match) throw new Error(`no unsubscribe link in: ${mail.text}`);
  expect(mail.html).toContain(`href="${PUBLIC_URL}${match[1]}"`);
  return match[1];
};

describe('comment notifications', () => {
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.stop();
  });

  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address.toLowerCase()));

  describe('replies', () => {
    let app: TestApp;
    let admin: string;
    let api: ReturnType<typeof client>;
    let replier: TestUser;
    let replierJwt: string;

    beforeAll(async () => {
      app = await setup(smtp, { replies: true });
      admin = await adminToken(app);
      api = client(app, admin);
      replier = await createUser(app.strapi);
      replierJwt = jwtFor(app.strapi, replier);
    });
    afterAll(async () => {
      await app.stop();
    });

    /** A new user's approved root comment on a new article. */
    const rootBy = async (author: TestUser | null) => {
      const article = await createArticle(app.strapi);
      const res = await api.post({ content: 'Root comment', article: article.documentId }, author ? jwtFor(app.strapi, author) : undefined).expect(201);
      await api.setStatus([res.body.data.documentId], 'approved').expect(200);
      return { article, root: res.body.data as { id: number; documentId: string } };
    };
    const replyTo = async (root: { id: number }, article: { documentId: string }, content: string, token = replierJwt) =>
      (await api.post({ content, article: article.documentId, parent: root.id }, token).expect(201)).body.data as { documentId: string; status: string };

    it('mails the parent author once, only after moderation approves the reply, with a link that unsubscribes', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const reply = await replyTo(root, article, 'Thanks for the <b>insight</b> & more');
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(0); // pending: nothing yet

      await api.setStatus([reply.documentId], 'approved').expect(200);
      const mail = await smtp.nextMail(author.email);
      expect(mail.subject).toBe('New reply to your comment');
      expect(mail.text).toContain(article.title as string);
      expect(mail.text).toContain('Thanks for the <b>insight</b> & more');
      expect(mail.text).toContain(replier.username);
      expect(mail.html).toContain('Thanks for the &lt;b&gt;insight&lt;/b&gt; &amp; more');
      expect(mail.html).not.toContain('<b>insight');
      for (const body of [mail.text, mail.html]) {
        expect(body).not.toContain(UA);
        expect(body).not.toContain('127.0.0.1');
        expect(body).not.toContain(author.email);
      }

      // Approved again, rejected and approved again: still the one mail.
      await api.setStatus([reply.documentId], 'approved').expect(200);
      await api.setStatus([reply.documentId], 'rejected').expect(200);
      await api.setStatus([reply.documentId], 'approved').expect(200);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(1);

      const path = linkIn(mail);
      expect((await oneClick(app, path).expect(200)).body).toEqual({ data: { unsubscribed: true, kind: 'reply' } });
      expect((await oneClick(app, path).expect(200)).body).toEqual({ data: { unsubscribed: true, kind: 'reply' } });
      const stored = await app.strapi.db.query(`${PLUGIN}.comment-unsubscribe` as never).findMany({});
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(author.email);

      const second = await replyTo(root, article, 'A second reply');
      await api.setStatus([second.documentId], 'approved').expect(200);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(1);
      expect((await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: second.documentId } })).status).toBe('approved');
    });

    it('quotes the published title, never an unpublished edit; sends nothing once the article has no published version', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const articles = app.strapi.documents(ARTICLE as never);
      await articles.update({ documentId: article.documentId, data: { title: 'Unpublished draft title 4c1e' } } as never);
      const reply = await replyTo(root, article, 'Reply while a draft edit waits');
      await api.setStatus([reply.documentId], 'approved').expect(200);
      const mail = await smtp.nextMail(author.email);
      expect(mail.text).toContain(`"${article.title}"`);
      for (const body of [mail.text, mail.html, mail.subject]) expect(body).not.toContain('Unpublished draft title');

      const late = await replyTo(root, article, 'Reply approved after the unpublish');
      await articles.unpublish({ documentId: article.documentId } as never);
      await api.setStatus([late.documentId], 'approved').expect(200);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(1);
    });

    it('mails at once when the reply is approved on submission (comments.autoApprove)', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      await settings.update({ comments: { autoApprove: true } });
      try {
        expect((await replyTo(root, article, 'Auto-approved reply')).status).toBe('approved');
      } finally {
        await settings.update({ comments: { autoApprove: false } });
      }
      expect((await smtp.nextMail(author.email)).text).toContain('Auto-approved reply');
    });

    it('mails for an admin reply and for a reply approved in the Content Manager', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      await app.request()
        .post(`/cms-plugin-bag/comments/${root.documentId}/reply`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ content: 'Answer from the site' })
        .expect(200);
      const fromSite = await smtp.nextMail(author.email);
      expect(fromSite.text).toContain('The site replied');
      expect(fromSite.text).toContain('Answer from the site');

      const reply = await replyTo(root, article, 'Approved in the Content Manager');
      await app.request()
        .put(`/content-manager/collection-types/${COMMENT}/${reply.documentId}`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ content: 'Approved in the Content Manager', status: 'approved' })
        .expect(200);
      expect((await smtp.nextMail(author.email)).text).toContain('Approved in the Content Manager');

      // Saving the approved reply again (the edit view sends every field) does not mail again.
      await app.request()
        .put(`/content-manager/collection-types/${COMMENT}/${reply.documentId}`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ content: 'Approved in the Content Manager (edited)', status: 'approved' })
        .expect(200);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(2);
    });

    it('does not mail a user about their own reply, nor a guest; a later reply by someone else does mail', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const own = await replyTo(root, article, 'Replying to myself', jwtFor(app.strapi, author));
      await api.setStatus([own.documentId], 'approved').expect(200);
      const other = await replyTo(root, article, 'Someone else replies');
      await api.setStatus([other.documentId], 'approved').expect(200);
      await api.settle();
      expect(mailsTo(author.email).map((mail) => mail.text.includes('Someone else replies'))).toEqual([true]);

      const before = smtp.mails.length;
      const guest = await rootBy(null);
      const underGuest = await replyTo(guest.root, guest.article, 'Reply to a guest');
      await api.setStatus([underGuest.documentId], 'approved').expect(200);
      await api.settle();
      expect(smtp.mails.length).toBe(before);
    });

    it('sends one mail when two moderators approve the same reply at the same moment', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const reply = await replyTo(root, article, 'Raced reply');
      const results = await Promise.all([api.setStatus([reply.documentId], 'approved'), api.setStatus([reply.documentId], 'approved')]);
      expect(results.map((res) => res.status)).toEqual([200, 200]);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(1);

      // Both requests may see the reply still pending (two instances do): both start a notification, one sends.
      const raced = await replyTo(root, article, 'Reply seen pending by both');
      const service = app.strapi.plugin('cms-plugin-bag').service('comment-notifications');
      const approving = await Promise.all([service.notApprovedYet([raced.documentId]), service.notApprovedYet([raced.documentId])]);
      expect(approving).toEqual([[raced.documentId], [raced.documentId]]);
      await app.strapi.db.query(COMMENT as never).updateMany({ where: { documentId: raced.documentId }, data: { status: 'approved' } });
      for (const documentIds of approving) service.repliesApproved(documentIds);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(2);
    });

    it('mails every parent author once when a bulk moderation approves several replies', async () => {
      const threads = await Promise.all([0, 1, 2].map(async () => {
        const author = await createUser(app.strapi);
        const { article, root } = await rootBy(author);
        return { author, reply: await replyTo(root, article, `Bulk reply to ${author.username}`) };
      }));
      await api.setStatus(threads.map((thread) => thread.reply.documentId), 'approved').expect(200);
      await api.settle();
      for (const { author } of threads) {
        expect(mailsTo(author.email).map((mail) => mail.text.includes(`Bulk reply to ${author.username}`))).toEqual([true]);
      }
    });

    it('refuses a forged or altered unsubscribe link with 400 and stores nothing, on GET and POST', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const reply = await replyTo(root, article, 'Reply for the link test');
      await api.setStatus([reply.documentId], 'approved').expect(200);
      const token = new URL(`${PUBLIC_URL}${linkIn(await smtp.nextMail(author.email))}`).searchParams.get('token')!;
      const [kind, lookup, expires, signature] = token.split('.');
      const flip = (text: string) => text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A');
      const wrongKey = crypto.createHmac('sha256', 'not-the-server-secret-at-all').update(`unsubscribe:${kind}:${lookup}:${expires}`).digest('base64url');
      const before = await unsubscriptions(app);
      const forgeries = [
        `${kind}.${lookup}.${expires}.${flip(signature)}`,
        `digest.${lookup}.${expires}.${signature}`,
        `${kind}.${lookup.slice(0, -1)}${lookup.endsWith('0') ? '1' : '0'}.${expires}.${signature}`,
        `${kind}.${lookup}.${Number(expires) + 86400 * 365}.${signature}`, // a longer life is not the server's word
        `${kind}.${lookup}.${expires}.${wrongKey}`,
        `${kind}.${lookup}.${signature}`, // the earlier format, without an expiry
        `${kind}.${lookup}`,
        'garbage',
      ];
      for (const forged of forgeries) {
        for (const res of [
          await app.request().get('/api/bag/comments/unsubscribe').query({ token: forged }),
          await app.request().post('/api/bag/comments/unsubscribe').query({ token: forged }).type('form').send('List-Unsubscribe=One-Click'),
        ]) {
          expect(res.status).toBe(400);
          expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid unsubscribe link' } });
        }
      }
      await app.request().get('/api/bag/comments/unsubscribe').expect(400);
      await app.request().post('/api/bag/comments/unsubscribe').expect(400);
      await app.request().get('/api/bag/comments/unsubscribe?token=a&token=b').expect(400);
      await app.request().post(`/api/bag/comments/unsubscribe?token=${token}&token=${token}`).expect(400);
      expect(await unsubscriptions(app)).toBe(before);
    });

    it('GET and HEAD only show a confirmation page; the POST it sends (or a one-click POST) unsubscribes', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const first = await replyTo(root, article, 'Reply before the scanner');
      await api.setStatus([first.documentId], 'approved').expect(200);
      const mail = await smtp.nextMail(author.email);
      const path = linkIn(mail);
      const before = await unsubscriptions(app);

      // What a mail scanner or a link preview does: nothing changes, however often.
      for (let i = 0; i < 3; i += 1) {
        const page = await app.request().get(path).set('Accept', 'text/html').expect(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.headers['cache-control']).toBe('no-store');
        expect(page.headers['referrer-policy']).toBe('no-referrer');
        expect(page.text).toContain('Stop e-mails about replies to your comments?');
        expect(page.text).toMatch(/<form method="post">/);
        expect(page.text).toContain('name="List-Unsubscribe" value="One-Click"');
        expect(page.text).not.toContain(path.split('token=')[1]);
        await app.request().head(path).expect(200);
      }
      expect(await unsubscriptions(app)).toBe(before);
      const second = await replyTo(root, article, 'Reply after the scanner');
      await api.setStatus([second.documentId], 'approved').expect(200);
      expect((await smtp.nextMail(author.email)).text).toContain('Reply after the scanner');

      // The page's button: a form POST from a browser, answered with a page.
      const done = await app.request().post(path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').type('form').send('List-Unsubscribe=One-Click');
      expect(done.status).toBe(200);
      expect(done.headers['content-type']).toMatch(/^text\/html/);
      expect(done.text).toContain('You will no longer receive e-mails about replies to your comments.');
      expect(await unsubscriptions(app)).toBe(before + 1);
      const third = await replyTo(root, article, 'Reply after the unsubscription');
      await api.setStatus([third.documentId], 'approved').expect(200);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(2);
    });

    it('carries RFC 8058 one-click headers: List-Unsubscribe with the link, List-Unsubscribe-Post', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const reply = await replyTo(root, article, 'Reply for the headers');
      await api.setStatus([reply.documentId], 'approved').expect(200);
      const mail = await smtp.nextMail(author.email);
      expect(mail.headers['list-unsubscribe']).toBe(`<${PUBLIC_URL}${linkIn(mail)}>`);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      // RFC 8058 allows the one-click body as multipart/form-data too.
      const res = await app.request().post(linkIn(mail)).field('List-Unsubscribe', 'One-Click').expect(200);
      expect(res.body).toEqual({ data: { unsubscribed: true, kind: 'reply' } });
    });

    it('a link expires after comments.notifications.unsubscribeExpiresIn (60 days): 400 Unsubscribe link expired', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const reply = await replyTo(root, article, 'Reply for the expiry test');
      await api.setStatus([reply.documentId], 'approved').expect(200);
      const path = linkIn(await smtp.nextMail(author.email));
      const before = await unsubscriptions(app);
      const clock = app.strapi.plugin('cms-plugin-bag').service('clock') as { now: () => number };
      const sentAt = Date.now();
      const at = (ms: number) => jest.spyOn(clock, 'now').mockImplementation(() => ms);
      try {
        at(sentAt + 60 * 86400 * 1000 + 5000);
        for (const res of [await app.request().get(path), await oneClick(app, path)]) {
          expect(res.status).toBe(400);
          expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', message: 'Unsubscribe link expired' } });
        }
        expect(await unsubscriptions(app)).toBe(before);
        at(sentAt + 59 * 86400 * 1000);
        await app.request().get(path).expect(200);
        await oneClick(app, path).expect(200);
      } finally {
        jest.restoreAllMocks();
      }
      expect(await unsubscriptions(app)).toBe(before + 1);
    });

    it('never writes the token into the host\'s request log (strapi::logger), whatever the answer', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const reply = await replyTo(root, article, 'Reply for the log test');
      await api.setStatus([reply.documentId], 'approved').expect(200);
      const path = linkIn(await smtp.nextMail(author.email));
      const token = path.split('token=')[1];
      const signature = token.split('.').pop()!;
      const http = jest.spyOn(app.strapi.log, 'http');
      const others = (['error', 'warn', 'info'] as const).map((level) => jest.spyOn(app.strapi.log, level));
      let lines: string[];
      let otherLines: string[];
      try {
        await app.request().get(path).expect(200);
        await app.request().head(path).expect(200);
        await app.request().get(`${path}x`).expect(400);
        await app.request().post(path).type('form').send('List-Unsubscribe=One-Click').expect(200);
        // Refused by the host's body parser, before any route: the token must be gone from the URL already.
        await app.request().post(path).set('Content-Type', 'application/json').send('{not json').expect(400);
        lines = http.mock.calls.map((call) => String(call[0]));
        otherLines = others.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(' ')));
      } finally {
        for (const spy of [http, ...others]) spy.mockRestore();
      }
      expect(lines.filter((line) => line.includes('/api/bag/comments/unsubscribe'))).toHaveLength(5);
      for (const line of [...lines, ...otherLines]) {
        expect(line).not.toContain(signature);
        expect(line).not.toContain('token=');
      }
    });

    it('keeps the comment when the mail server refuses, logs no address or link, and retries on the next approval', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const warn = jest.spyOn(app.strapi.log, 'warn');
      try {
        smtp.refuse(true);
        const reply = await replyTo(root, article, 'Reply while the server refuses');
        await api.setStatus([reply.documentId], 'approved').expect(200);
        await api.settle();
        smtp.refuse(false);
        const row = await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: reply.documentId } });
        expect(row).toMatchObject({ status: 'approved', notifiedAt: null });
        expect(mailsTo(author.email)).toHaveLength(0);
        const logged = warn.mock.calls.map((call) => String(call[0]));
        expect(logged.some((line) => line.includes('reply notification not delivered') && line.includes('SMTP 550'))).toBe(true);
        for (const line of logged) {
          expect(line).not.toContain(author.email);
          expect(line).not.toContain('token=');
        }

        // The claim was given back: the next approval delivers.
        await api.setStatus([reply.documentId], 'rejected').expect(200);
        await api.setStatus([reply.documentId], 'approved').expect(200);
        expect((await smtp.nextMail(author.email)).text).toContain('Reply while the server refuses');
      } finally {
        smtp.refuse(false);
        warn.mockRestore();
      }
    });

    it('answers at once while the mail server hangs or is down, and no promise is left unhandled', async () => {
      const author = await createUser(app.strapi);
      const { article, root } = await rootBy(author);
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      // A server that takes the connection and never greets: each delivery waits for SMTP_TIMEOUT (3 s).
      await smtp.stop();
      const sockets = new Set<net.Socket>();
      const hanging = net.createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => hanging.listen(smtp.port, '127.0.0.1', resolve));
      try {
        const reply = await replyTo(root, article, 'Reply while the server hangs');
        let started = Date.now();
        await api.setStatus([reply.documentId], 'approved').expect(200);
        expect(Date.now() - started).toBeLessThan(1500);

        await settings.update({ comments: { autoApprove: true } });
        started = Date.now();
        const auto = await replyTo(root, article, 'Auto-approved while the server hangs');
        expect(Date.now() - started).toBeLessThan(1500);
        expect(auto.status).toBe('approved');

        started = Date.now();
        await api.settle();
        expect(Date.now() - started).toBeGreaterThan(1500); // the deliveries really were waiting on the server
        for (const documentId of [reply.documentId, auto.documentId]) {
          expect(await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId } })).toMatchObject({ status: 'approved', notifiedAt: null });
        }

        // Down altogether: refused connections.
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => hanging.close(() => resolve()));
        const down = await replyTo(root, article, 'Reply while the server is down');
        expect(down.status).toBe('approved');
        await api.settle();
        expect((await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: down.documentId } })).status).toBe('approved');
        expect(unhandled).toEqual([]);
      } finally {
        await settings.update({ comments: { autoApprove: false } });
        for (const socket of sockets) socket.destroy();
        if (hanging.listening) await new Promise<void>((resolve) => hanging.close(() => resolve()));
        await smtp.start();
        process.off('unhandledRejection', onUnhandled);
      }
    });
  });

  describe('moderator digest', () => {
    let app: TestApp;
    let api: ReturnType<typeof client>;
    const MODERATORS = ['mod-one@example.com', 'mod-two@example.com'];

    beforeAll(async () => {
      app = await setup(smtp, { moderators: { emails: MODERATORS, interval: '1h', minPending: 3 } });
      api = client(app, await adminToken(app));
    });
    afterAll(async () => {
      await app.stop();
    });

    it('sends one digest per interval once the queue holds minPending comments, and honours its unsubscribe link', async () => {
      const article = await createArticle(app.strapi);
      // An editor's unpublished edit: the digest quotes the published title only.
      await app.strapi.documents(ARTICLE as never).update({ documentId: article.documentId, data: { title: 'Unpublished digest title 9b2d' } } as never);
      const posted: string[] = [];
      const submit = async (content: string) => {
        posted.push((await api.post({ content, article: article.documentId }).expect(201)).body.data.documentId);
        await api.settle();
      };
      await submit('First pending');
      await submit('Second pending');
      expect(smtp.mails.filter((mail) => MODERATORS.some((m) => mail.to.includes(m)))).toHaveLength(0);

      await submit('Third pending <script>x</script>');
      await submit('Fourth pending');
      await submit('Fifth pending');
      for (const moderator of MODERATORS) {
        const digests = mailsTo(moderator);
        expect(digests).toHaveLength(1);
        expect(digests[0].subject).toBe('Comments waiting for moderation');
        expect(digests[0].text).toContain('3 comments waiting for moderation');
        expect(digests[0].text).toContain(article.title as string);
        for (const body of [digests[0].text, digests[0].html]) expect(body).not.toContain('Unpublished digest title');
        expect(digests[0].text).toContain('Third pending <script>x</script>');
        expect(digests[0].html).toContain('Third pending &lt;script&gt;x&lt;/script&gt;');
        expect(digests[0].html).not.toContain('<script>');
        expect(digests[0].text).not.toContain(UA);
        expect(digests[0].text).not.toContain('127.0.0.1');
      }

      const path = linkIn(mailsTo(MODERATORS[1])[0]);
      expect((await oneClick(app, path).expect(200)).body).toEqual({ data: { unsubscribed: true, kind: 'digest' } });

      // The next window: a new pending comment (on another article) sends the next digest, to the moderator still
      // subscribed. The first article is unpublished meanwhile: its comments are listed without any of its titles.
      const other = await createArticle(app.strapi);
      await app.strapi.documents(ARTICLE as never).unpublish({ documentId: article.documentId } as never);
      const clock = app.strapi.plugin('cms-plugin-bag').service('clock') as { now: () => number };
      const later = Date.now() + 2 * 3600 * 1000;
      const now = jest.spyOn(clock, 'now').mockImplementation(() => later);
      try {
        posted.push((await api.post({ content: 'Sixth pending', article: other.documentId }).expect(201)).body.data.documentId);
        await api.settle();
      } finally {
        now.mockRestore();
      }
      expect(mailsTo(MODERATORS[0])).toHaveLength(2);
      const second = mailsTo(MODERATORS[0])[1];
      expect(second.text).toContain('6 comments waiting for moderation');
      expect(second.text).toContain('Sixth pending');
      expect(second.text).toContain(other.title as string);
      expect(second.text).toContain('on "(an unpublished article)": Fifth pending');
      for (const body of [second.text, second.html]) {
        expect(body).not.toContain(article.title as string);
        expect(body).not.toContain('Unpublished digest title');
      }
      expect(mailsTo(MODERATORS[1])).toHaveLength(1);
    });

    it('sends no reply mail while comments.notifications.replies is off (the default)', async () => {
      const author = await createUser(app.strapi);
      const article = await createArticle(app.strapi);
      const root = (await api.post({ content: 'Root', article: article.documentId }, jwtFor(app.strapi, author)).expect(201)).body.data;
      await api.setStatus([root.documentId], 'approved').expect(200);
      const reply = (await api.post({ content: 'Reply', article: article.documentId, parent: root.id }).expect(201)).body.data;
      await api.setStatus([reply.documentId], 'approved').expect(200);
      await api.settle();
      expect(mailsTo(author.email)).toHaveLength(0);
      expect((await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: reply.documentId } })).notifiedAt).toBeNull();
    });
  });
});
