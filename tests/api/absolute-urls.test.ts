/**
 * Absolute URLs come from configuration only (docs/discovery.md#absolute-urls): a request carrying someone else's
 * `Host`, `X-Forwarded-Host` or `X-Forwarded-Proto` never changes a feed, a sitemap or a mail, with the host's proxy
 * trust off and on, so nobody can plant a domain in an answer the response cache then serves to every reader.
 * The host has no `server.url` here (the case where the request's origin used to leak in): its own URL is its
 * configured host and port, `0.0.0.0` read as `localhost`.
 */
import { parseXml, text } from '../helpers/discovery';
import { adminToken, createDocument, createUser, jwtFor } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const SITE = 'https://www.example.com';
/** The host's URL from its configuration below: HOST 0.0.0.0, PORT 4242, no server.url. */
const SERVER = 'http://localhost:4242';
const EVIL = 'evil.example';

/** The server's configured address (the test harness listens on a port of its own whatever PORT says). */
const SERVER_ENV = { PUBLIC_URL: '', HOST: '0.0.0.0', PORT: '4242' };

const HOSTILE: [string, Record<string, string>][] = [
  ['Host', { Host: EVIL }],
  ['X-Forwarded-Host and X-Forwarded-Proto', { 'X-Forwarded-Host': EVIL, 'X-Forwarded-Proto': 'https' }],
  ['all three', { Host: EVIL, 'X-Forwarded-Host': `${EVIL}:8443`, 'X-Forwarded-Proto': 'https' }],
];

describe.each([
  ['off', 'false'],
  ['on', 'true'],
])('absolute URLs in feeds and sitemaps, proxy trust %s', (_, proxyTrust) => {
  let app: TestApp;
  let published = 0;

  beforeAll(async () => {
    app = await setupStrapi({
      config: { site: { url: SITE }, feeds: { size: 50 }, sitemap: { pageSize: 2 } },
      env: { ...SERVER_ENV, PROXY_TRUST: proxyTrust },
    });
    const cover = await app.strapi.db.query('plugin::upload.file').create({
      data: { name: 'cover.png', hash: 'cover_hash', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/cover.png', provider: 'local' },
    });
    // The first article by row id, so the first sitemap page carries its cover as image:loc.
    await createDocument(app.strapi, ARTICLE, { title: 'Covered', slug: 'covered', cover: cover.id });
    await createDocument(app.strapi, ARTICLE, { title: 'Plain', slug: 'plain' });
  });

  afterAll(async () => {
    await app.stop();
  });

  /** A newly published article: every cached discovery answer is stale, so the next request renders afresh. */
  const publishOne = async () => {
    published += 1;
    const title = `Fresh ${published}`;
    await createDocument(app.strapi, ARTICLE, { title, slug: `fresh-${published}` });
    return title;
  };

  /** The hostile request first (a cache miss, rendered with its headers), then a plain one; both bodies compared. */
  const poisonThenRead = async (path: string, headers: Record<string, string>) => {
    const poisoned = app.request().get(`/api/bag${path}`);
    for (const [name, value] of Object.entries(headers)) poisoned.set(name, value);
    const first = await poisoned.expect(200);
    const second = await app.request().get(`/api/bag${path}`).expect(200);
    for (const res of [first, second]) expect(res.text).not.toContain(EVIL);
    expect(first.text).toBe(second.text);
    expect(first.headers.etag).toBe(second.headers.etag);
    return first.text;
  };

  describe.each(HOSTILE)('with a hostile %s', (__, headers) => {
    it.each([
      ['rss', (body: string) => parseXml(body).rss.channel['atom:link']['@href'], (body: string) => parseXml(body).rss.channel.item.map((item: any) => item.enclosure?.['@url'])],
      [
        'atom',
        (body: string) => parseXml(body).feed.link.find((link: any) => link['@rel'] === 'self')['@href'],
        (body: string) => parseXml(body).feed.entry.map((entry: any) => entry.link.find((link: any) => link['@rel'] === 'enclosure')?.['@href']),
      ],
      ['json', (body: string) => JSON.parse(body).feed_url, (body: string) => JSON.parse(body).items.map((item: any) => item.image)],
    ])('the %s feed names itself and its covers on the configured host', async (format, self, covers) => {
      const title = await publishOne();
      const body = await poisonThenRead(`/feeds/articles.${format}`, headers);
      expect(body).toContain(title); // rendered for the hostile request, not an earlier cache entry
      expect(self(body)).toBe(`${SERVER}/api/bag/feeds/articles.${format}`);
      expect(covers(body).filter(Boolean)).toEqual([`${SERVER}/uploads/cover.png`]);
    });

    it('the sitemap index lists its pages on the configured host', async () => {
      await publishOne();
      const body = await poisonThenRead('/sitemap.xml', headers);
      const locs = parseXml(body).sitemapindex.sitemap.map((entry: any) => text(entry.loc));
      expect(locs.length).toBeGreaterThan(1);
      expect(locs).toEqual(locs.map((_loc: string, i: number) => `${SERVER}/api/bag/sitemaps/${i + 1}.xml`));
    });

    it('a sitemap page carries covers as image:loc on the configured host', async () => {
      await publishOne();
      const body = await poisonThenRead('/sitemaps/1.xml', headers);
      const urls = parseXml(body).urlset.url;
      expect(urls.map((url: any) => text(url.loc))).toEqual([`${SITE}/articles/covered`, `${SITE}/articles/plain`]);
      expect(text(urls[0]['image:image'][0]['image:loc'])).toBe(`${SERVER}/uploads/cover.png`);
    });
  });
});

describe('absolute URLs in mails: the unsubscribe link of a reply mail', () => {
  let smtp: TestSmtp;
  let app: TestApp;

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      config: { comments: { notifications: { replies: true } }, rateLimit: { comment: { interval: '1m', max: 1000 } } },
      env: { ...smtp.env, ...SERVER_ENV, PROXY_TRUST: 'true' },
    });
  });

  afterAll(async () => {
    await app.stop();
    await smtp.stop();
  });

  it('is on the configured host, whatever Host and X-Forwarded-* the requests that caused the mail carried', async () => {
    const admin = await adminToken(app);
    const article = await createDocument(app.strapi, ARTICLE, { title: 'Discussed', slug: 'discussed' });
    const [author, replier] = [await createUser(app.strapi), await createUser(app.strapi)];
    const hostile = (req: ReturnType<ReturnType<TestApp['request']>['post']>) =>
      req.set('Host', EVIL).set('X-Forwarded-Host', EVIL).set('X-Forwarded-Proto', 'https');
    const post = (body: Record<string, unknown>, user: { id: number }) =>
      hostile(app.request().post('/api/bag/comments')).set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).send(body).expect(201);
    const approve = (documentId: string) =>
      hostile(app.request().put('/cms-plugin-bag/comments/status'))
        .set('Authorization', `Bearer ${admin}`)
        .send({ documentIds: [documentId], status: 'approved' })
        .expect(200);

    const root = (await post({ content: 'Root', article: article.documentId }, author)).body.data;
    await approve(root.documentId);
    const reply = (await post({ content: 'A reply', article: article.documentId, parent: root.id }, replier)).body.data;
    await approve(reply.documentId);

    const mail = await smtp.nextMail(author.email);
    for (const body of [mail.text, mail.html, mail.headers['list-unsubscribe']]) expect(body).not.toContain(EVIL);
    const link = /(https?:\/\/\S+?\/api\/bag\/comments\/unsubscribe\?token=[A-Za-z0-9._-]+)/.exec(mail.text)?.[1];
    expect(link?.startsWith(`${SERVER}/api/bag/comments/unsubscribe?token=`)).toBe(true);
    expect(mail.headers['list-unsubscribe']).toBe(`<${link}>`);
  });
});
