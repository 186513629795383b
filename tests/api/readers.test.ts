/**
 * Readers (docs/readers.md): views per document, locale and day beside the total; crawlers not counted on detail reads
 * (HTTP libraries still are), the beacon `POST /api/bag/views` (bots and HTTP libraries refused), retention; popular
 * articles by period (ties newer first), related articles (tags, category, words; never itself); `commentCount` and
 * comment counts by slug; JSON-LD on details; the Google News sitemap; bad input 4xx. One Strapi boot.
 */
import { parseXml, setPublishedAt, text } from '../helpers/discovery';
import { seedComments } from '../helpers/comments';
import { adminToken, createDocument, createUser } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const CATEGORY = `${PLUGIN}.category`;
const TAG = `${PLUGIN}.tag`;
const SITE = 'https://news.example.com';
const TITLE = 'Bag News';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const CRAWLERS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
  'Feedly/1.0 (+http://www.feedly.com/fetcher.html)',
];
const LIBRARIES = ['node', 'undici', 'axios/1.7.2', 'curl/8.5.0'];
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('readers', () => {
  let app: TestApp;
  const get = (path: string, agent = 'node') => app.request().get(`/api/bag${path}`).set('User-Agent', agent);
  const beacon = (body: unknown, agent = BROWSER) => app.request().post('/api/bag/views').set('User-Agent', agent).send(body as object);
  const total = async (documentId: string, uid = ARTICLE) =>
    Number((await app.strapi.db.query(uid as never).findOne({ where: { documentId, publishedAt: { $notNull: true } } }))?.views);
  const dayRows = (document: string) => app.strapi.db.connection('bag_view_days').where({ document }).orderBy('day');
  const addDay = (kind: string, document: string, day: string, views: number, locale = 'en') =>
    app.strapi.db.connection('bag_view_days').insert({ kind, document, locale, day, views });

  let slugCounter = 0;
  const article = async (title: string, extra: Record<string, unknown> = {}) => {
    slugCounter += 1;
    return createDocument(app.strapi, ARTICLE, { title, slug: `r-${slugCounter}-${title.toLowerCase().replace(/\W+/g, '-')}`, ...extra });
  };

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE, title: TITLE }, rateLimit: { views: { interval: '1m', max: 40 } } } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  describe('views on detail reads (docs/readers.md#what-counts)', () => {
    let doc: { documentId: string; slug: string };
    beforeAll(async () => {
      doc = (await article('Counted article')) as never;
    });

    it('counts a reader, and an HTTP library (a server-rendered front end), cached or not', async () => {
      const before = await total(doc.documentId);
      for (const agent of [BROWSER, ...LIBRARIES, BROWSER]) expect((await get(`/articles/${doc.slug}`, agent)).status).toBe(200);
      expect(await total(doc.documentId)).toBe(before + 2 + LIBRARIES.length);
    });

    it('counts no crawler and no empty User-Agent, on a miss and on a cache hit, and shows the count', async () => {
      const before = await total(doc.documentId);
      for (const agent of [...CRAWLERS, '', ...CRAWLERS]) {
        const res = await get(`/articles/${doc.slug}`, agent);
        expect(res.status).toBe(200);
        expect(res.body.data.views).toBe(before);
      }
      expect(await total(doc.documentId)).toBe(before);
    });

    it('keeps the reads per document, locale and day (UTC) beside the total, without IP or User-Agent', async () => {
      const rows = await dayRows(doc.documentId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: 'article', locale: 'en', day: dayOf(Date.now()), views: await total(doc.documentId) });
      const columns = Object.keys(rows[0]).map((column) => column.toLowerCase());
      expect(columns.some((column) => /ip|agent/.test(column))).toBe(false);
    });

    it('counts crawlers with views.countBots', async () => {
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      const file = settings.file();
      const spy = jest.spyOn(settings, 'file').mockReturnValue({ ...file, views: { ...file.views, countBots: true } });
      try {
        const before = await total(doc.documentId);
        await get(`/articles/${doc.slug}`, CRAWLERS[0]).expect(200);
        expect(await total(doc.documentId)).toBe(before + 1);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('the beacon POST /api/bag/views', () => {
    let doc: { documentId: string; slug: string };
    let page: { documentId: string; slug: string };
    beforeAll(async () => {
      doc = (await article('Beacon article')) as never;
      page = (await createDocument(app.strapi, PAGE, { title: 'Beacon page', slug: 'beacon-page' })) as never;
    });

    it('counts a browser: 202 { counted: true }, the total and the day', async () => {
      const res = await beacon({ type: 'article', slug: doc.slug });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ counted: true });
      expect(await total(doc.documentId)).toBe(1);
      expect((await dayRows(doc.documentId))[0]).toMatchObject({ locale: 'en', views: 1 });
      expect((await beacon({ type: 'page', slug: page.slug, locale: 'en' })).body).toEqual({ counted: true });
      expect(await total(page.documentId, PAGE)).toBe(1);
    });

    it('takes the body navigator.sendBeacon sends: a JSON string as text/plain', async () => {
      const before = await total(doc.documentId);
      const res = await app
        .request()
        .post('/api/bag/views')
        .set('User-Agent', BROWSER)
        .set('Content-Type', 'text/plain;charset=UTF-8')
        .send(JSON.stringify({ type: 'article', slug: doc.slug }));
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ counted: true });
      expect(await total(doc.documentId)).toBe(before + 1);
      const notJson = await app.request().post('/api/bag/views').set('User-Agent', BROWSER).set('Content-Type', 'text/plain').send('views please');
      expect(notJson.status).toBe(400);
    });

    it('refuses bots, HTTP libraries and an empty User-Agent: 202 { counted: false }', async () => {
      for (const agent of [CRAWLERS[0], 'HeadlessChrome/124.0', ...LIBRARIES, '']) {
        const res = await beacon({ type: 'article', slug: doc.slug }, agent);
        expect(res.status).toBe(202);
        expect(res.body).toEqual({ counted: false });
      }
      expect(await total(doc.documentId)).toBe(2);
    });

    it('answers 404 for an unknown slug, 400 for bad input', async () => {
      const missing = await beacon({ type: 'article', slug: 'no-such-article' });
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('Article not found');
      expect((await beacon({ type: 'page', slug: 'no-such-page' })).body.error.message).toBe('Page not found');
      for (const body of [{ type: 'tag', slug: 'x' }, { type: 'article' }, { type: 'article', slug: 5 }]) {
        expect((await beacon(body)).status).toBe(400);
      }
      expect((await beacon({ type: 'article', slug: doc.slug, locale: 'xx-nope' })).status).toBe(400);
    });
  });

  describe('the side panel chart GET /cms-plugin-bag/edit-panel/:kind/:documentId/daily', () => {
    it('gives the last 30 days, oldest first, zeros filled in, every locale summed; 404 for no document', async () => {
      const doc = (await article('Charted')) as { documentId: string };
      await addDay('article', doc.documentId, dayOf(Date.now() - 2 * DAY_MS), 3);
      await addDay('article', doc.documentId, dayOf(Date.now() - 2 * DAY_MS), 4, 'fr');
      await addDay('article', doc.documentId, dayOf(Date.now() - 30 * DAY_MS), 50);
      const token = await adminToken(app);
      const res = await app.request().get(`/cms-plugin-bag/edit-panel/article/${doc.documentId}/daily`).set('Authorization', `Bearer ${token}`).expect(200);
      expect(res.body.data).toHaveLength(30);
      expect(res.body.data[29].day).toBe(dayOf(Date.now()));
      expect(res.body.data[27]).toEqual({ day: dayOf(Date.now() - 2 * DAY_MS), views: 7 });
      expect(res.body.data.reduce((sum: number, point: { views: number }) => sum + point.views, 0)).toBe(7);
      const missing = await app.request().get('/cms-plugin-bag/edit-panel/article/nosuchdocument000000000/daily').set('Authorization', `Bearer ${token}`);
      expect(missing.status).toBe(404);
      expect((await app.request().get(`/cms-plugin-bag/edit-panel/article/${doc.documentId}/daily`)).status).toBe(401);
    });
  });

  describe('retention (views.retention)', () => {
    it('removes daily rows older than 400 days, keeps newer ones and the totals', async () => {
      const doc = (await article('Old article')) as { documentId: string };
      const old = dayOf(Date.now() - 401 * DAY_MS);
      const kept = dayOf(Date.now() - 399 * DAY_MS);
      await addDay('article', doc.documentId, old, 5);
      await addDay('article', doc.documentId, kept, 7);
      const before = await total(doc.documentId);
      expect(await app.strapi.plugin('cms-plugin-bag').service('readers').prune()).toBeGreaterThanOrEqual(1);
      expect((await dayRows(doc.documentId)).map((row: { day: string }) => row.day)).toEqual([kept]);
      expect(await total(doc.documentId)).toBe(before);
    });
  });

  describe('popular, related, comment counts', () => {
    const docs: Record<string, { id: number; documentId: string; slug: string }> = {};
    let category: { documentId: string; slug: string };
    let other: { documentId: string; slug: string };

    beforeAll(async () => {
      const { strapi } = app;
      category = (await createDocument(strapi, CATEGORY, { title: 'Science', slug: 'science' })) as never;
      other = (await createDocument(strapi, CATEGORY, { title: 'Sport', slug: 'sport' })) as never;
      const t1 = await createDocument(strapi, TAG, { title: 'Planets', slug: 'planets' });
      const t2 = await createDocument(strapi, TAG, { title: 'Moons', slug: 'moons' });
      const t3 = await createDocument(strapi, TAG, { title: 'Rockets', slug: 'rockets' });
      const make = async (key: string, title: string, data: Record<string, unknown>, publishedAt: string) => {
        docs[key] = (await article(title, data)) as never;
        await setPublishedAt(strapi, ARTICLE, docs[key].documentId, publishedAt);
      };
      await make('me', 'Jupiter telescope survey', { tags: [t1.documentId, t2.documentId], category: category.documentId, summary: 'Gas giants' }, '2026-01-01T00:00:00Z');
      await make('twoTags', 'Saturn rings', { tags: [t1.documentId, t2.documentId] }, '2026-01-02T00:00:00Z');
      await make('oneTagOld', 'Mars dust', { tags: [t1.documentId] }, '2026-01-03T00:00:00Z');
      await make('oneTagNew', 'Venus clouds', { tags: [t1.documentId] }, '2026-01-04T00:00:00Z');
      await make('sameCategory', 'Cells divide', { category: category.documentId }, '2026-01-05T00:00:00Z');
      await make('word', 'A telescope for amateurs', { tags: [t3.documentId], category: other.documentId }, '2026-01-06T00:00:00Z');
      await make('unrelated', 'Football results', { tags: [t3.documentId], category: other.documentId }, '2026-01-07T00:00:00Z');

      const today = dayOf(Date.now());
      const daysAgo = (n: number) => dayOf(Date.now() - n * DAY_MS);
      // 1d: unrelated 9, word 4 = oneTagNew 4 (tie: newer first → word), 7d adds twoTags 20 three days ago, 30d adds me 50.
      await addDay('article', docs.unrelated.documentId, today, 9);
      await addDay('article', docs.word.documentId, today, 4);
      await addDay('article', docs.oneTagNew.documentId, today, 4);
      await addDay('article', docs.twoTags.documentId, daysAgo(3), 20);
      await addDay('article', docs.me.documentId, daysAgo(20), 50);
      await addDay('article', docs.sameCategory.documentId, daysAgo(60), 99);
      await strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: docs.sameCategory.documentId }, data: { views: 1000 } });
    });

    const slugsOf = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((item) => item.slug);
    /** This block's articles only (the ones read above are popular today too). */
    const ours = (res: { body: { data: { slug: string; periodViews?: number }[] } }) =>
      res.body.data.filter((item) => Object.values(docs).some((doc) => doc.slug === item.slug));

    it('GET /articles/popular orders by views in the period, ties newer first, with periodViews', async () => {
      const day = await get('/articles/popular?period=1d').expect(200);
      expect(ours(day).map((item) => item.slug)).toEqual([docs.unrelated.slug, docs.word.slug, docs.oneTagNew.slug]);
      expect(ours(day).map((item) => item.periodViews)).toEqual([9, 4, 4]);
      const periodViews = day.body.data.map((item: { periodViews: number }) => item.periodViews);
      expect(periodViews).toEqual([...periodViews].sort((a, b) => b - a));
      expect(day.body.data[0]).toMatchObject({ title: 'Football results', category: { slug: 'sport' }, commentCount: 0 });
      expect(ours(await get('/articles/popular').expect(200)).map((item) => item.slug)).toEqual([docs.twoTags.slug, docs.unrelated.slug, docs.word.slug, docs.oneTagNew.slug]);
      expect(slugsOf(await get('/articles/popular?period=30d&limit=2').expect(200))).toEqual([docs.me.slug, docs.twoTags.slug]);
      expect(slugsOf(await get('/articles/popular?period=all&limit=1').expect(200))).toEqual([docs.sameCategory.slug]);
      expect(slugsOf(await get('/articles/popular?period=30d&category=science').expect(200))).toEqual([docs.me.slug]);
    });

    it('GET /articles/:slug/related ranks shared tags, then category, then words; never itself', async () => {
      const res = await get(`/articles/${docs.me.slug}/related?limit=10`).expect(200);
      expect(slugsOf(res)).toEqual([docs.twoTags.slug, docs.oneTagNew.slug, docs.oneTagOld.slug, docs.sameCategory.slug, docs.word.slug]);
      expect(slugsOf(await get(`/articles/${docs.me.slug}/related?limit=2`).expect(200))).toEqual([docs.twoTags.slug, docs.oneTagNew.slug]);
      expect(slugsOf(await get(`/articles/${docs.me.slug}/related`).expect(200))).toHaveLength(5);
    });

    it('commentCount on lists and details counts approved, not deleted; counts by slug', async () => {
      const { strapi } = app;
      const ids = await seedComments(strapi, docs.word.documentId, [
        { content: 'a', parentIndex: null },
        { content: 'b', parentIndex: 0 },
        { content: 'c', status: 'pending', parentIndex: null },
        { content: 'd', parentIndex: null },
      ]);
      await strapi.db.query(`${PLUGIN}.comment` as never).update({ where: { id: ids[3] }, data: { deleted: true } });
      await strapi.plugin('cms-plugin-bag').service('cache-versions').invalidate('comments');
      const detail = await get(`/articles/${docs.word.slug}`).expect(200);
      expect(detail.body.data.commentCount).toBe(2);
      const list = await get(`/articles?pagination[pageSize]=100`).expect(200);
      const counts = Object.fromEntries(list.body.data.map((item: { slug: string; commentCount: number }) => [item.slug, item.commentCount]));
      expect(counts[docs.word.slug]).toBe(2);
      expect(counts[docs.me.slug]).toBe(0);
      const bySlug = await get(`/comments/counts?articles=${docs.word.slug},${docs.me.slug}`).expect(200);
      expect(bySlug.body).toEqual({ data: { [docs.word.slug]: 2, [docs.me.slug]: 0 } });
    });

    it('answers bad input with 4xx', async () => {
      for (const query of ['period=2d', 'limit=0', 'limit=51', 'limit=x', 'locale=xx-nope']) {
        expect((await get(`/articles/popular?${query}`)).status).toBe(400);
      }
      expect((await get('/articles/popular?category=no-such-category')).status).toBe(404);
      expect((await get(`/articles/${docs.me.slug}/related?limit=21`)).status).toBe(400);
      const missing = await get('/articles/no-such-article/related');
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('Article not found');
    });
  });

  describe('for search engines', () => {
    it('article details carry BlogPosting and BreadcrumbList JSON-LD with absolute URLs from site.url', async () => {
      const { strapi } = app;
      const parent = await createDocument(strapi, CATEGORY, { title: 'Space', slug: 'space' });
      const child = await createDocument(strapi, CATEGORY, { title: 'Planets', slug: 'planets-cat', parent: parent.documentId });
      const author = await createUser(strapi);
      const doc = (await article('Structured data', { summary: 'What crawlers read', category: child.documentId, author: author.id })) as unknown as {
        slug: string;
      };
      const res = await get(`/articles/${doc.slug}`).set('Host', 'evil.example.org').expect(200);
      const [posting, crumbs] = res.body.meta.jsonLd;
      const url = `${SITE}/articles/${doc.slug}`;
      expect(posting).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: 'Structured data',
        description: 'What crawlers read',
        url,
        mainEntityOfPage: { '@type': 'WebPage', '@id': url },
        author: { '@type': 'Person', name: author.username },
        publisher: { '@type': 'Organization', name: TITLE },
        inLanguage: 'en',
      });
      expect(posting.datePublished).toBe(res.body.data.publishedAt);
      expect(posting.dateModified).toBe(res.body.data.updatedAt);
      expect(crumbs['@type']).toBe('BreadcrumbList');
      expect(crumbs.itemListElement).toEqual([
        { '@type': 'ListItem', position: 1, name: TITLE, item: `${SITE}/` },
        { '@type': 'ListItem', position: 2, name: 'Space', item: `${SITE}/categories/space` },
        { '@type': 'ListItem', position: 3, name: 'Planets', item: `${SITE}/categories/planets-cat` },
        { '@type': 'ListItem', position: 4, name: 'Structured data', item: url },
      ]);
      expect(JSON.stringify(res.body.meta)).not.toContain('evil.example.org');
    });

    it('page details carry WebPage JSON-LD', async () => {
      const page = (await createDocument(app.strapi, PAGE, { title: 'About', slug: 'about-us', seoDescription: 'Who we are' })) as unknown as { slug: string };
      const res = await get(`/pages/${page.slug}`).expect(200);
      const [webPage, crumbs] = res.body.meta.jsonLd;
      expect(webPage).toMatchObject({ '@type': 'WebPage', headline: 'About', description: 'Who we are', url: `${SITE}/about-us`, inLanguage: 'en' });
      expect(crumbs.itemListElement).toHaveLength(2);
    });

    it('GET /sitemap-news.xml lists the articles of the last 48 hours with news tags', async () => {
      const fresh = (await article('Breaking & fresh')) as unknown as { slug: string };
      const stale = (await article('Yesterday news')) as unknown as { documentId: string; slug: string };
      await setPublishedAt(app.strapi, ARTICLE, stale.documentId, new Date(Date.now() - 49 * 3600 * 1000).toISOString());
      const res = await get('/sitemap-news.xml').expect(200);
      expect(res.headers['content-type']).toContain('xml');
      const urls = [parseXml(res.text).urlset.url].flat();
      const locs = urls.map((url: any) => text(url.loc));
      expect(locs).toContain(`${SITE}/articles/${fresh.slug}`);
      expect(locs).not.toContain(`${SITE}/articles/${stale.slug}`);
      const entry = urls.find((url: any) => text(url.loc) === `${SITE}/articles/${fresh.slug}`);
      const news = entry['news:news'];
      expect(text(news['news:publication']['news:name'])).toBe(TITLE);
      expect(text(news['news:publication']['news:language'])).toBe('en');
      expect(text(news['news:title'])).toBe('Breaking & fresh');
      expect(text(news['news:publication_date'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });
  });

  it('grants the new routes to Public and Authenticated on first start', async () => {
    for (const type of ['public', 'authenticated']) {
      const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type }, populate: ['permissions'] });
      const actions = role.permissions.map((permission: { action: string }) => permission.action);
      for (const action of ['readers.view', 'readers.popular', 'readers.related', 'sitemap.news']) expect(actions).toContain(`${PLUGIN}.${action}`);
    }
  });

  it('answers 429 over rateLimit.views', async () => {
    let status = 0;
    for (let i = 0; i < 45 && status !== 429; i += 1) status = (await beacon({ type: 'article', slug: 'no-such-article' })).status;
    expect(status).toBe(429);
  });
});
