/**
 * Feeds (docs/discovery.md#feeds): RSS 2.0, Atom 1.0 and JSON Feed 1.1 of the newest `feeds.size` published articles of a locale,
 * read back with real parsers (rss-parser as a feed reader, fast-xml-parser for the elements each spec requires);
 * category, tag and locale narrowing and their 404s; escaping; absolute links; stable ids; drafts and unpublished
 * articles never listed; 503 while `site.url` is unset (feeds and sitemap).
 */
import Parser from 'rss-parser';
import { localizedDocument, parseXml, setPublishedAt, text, type Doc } from '../helpers/discovery';
import { createDocument, createUser, setPermission } from '../helpers/fixtures';
import { addLocales, EXTRA_LOCALES } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const CATEGORY = `${PLUGIN}.category`;
const TAG = `${PLUGIN}.tag`;

const SITE = 'https://www.example.com';
/** The host's `server.url`: covers and a feed's own URL are absolute on it. */
const HOST = 'https://cms.example.com';
const SITE_TITLE = 'Bag <News> & "Friends"';
const SITE_DESCRIPTION = "Tom's <feed>";
/** A title with every XML special character and control characters, and what a reader must show of it. */
const TRICKY = "Tricky <b>\"quotes\"</b> & 'apostrophes'\u0001\u0008\u001F end";
const TRICKY_CLEAN = "Tricky <b>\"quotes\"</b> & 'apostrophes' end";

const reader = new Parser({ customFields: { item: [['dc:creator', 'creator']] } });

describe('feeds', () => {
  let app: TestApp;
  const docs: Record<string, Doc> = {};

  const get = (path: string) => app.request().get(`/api/bag/feeds${path}`);
  const rssItems = async (query = '') => {
    const res = await get(`/articles.rss${query}`);
    expect(res.status).toBe(200);
    return parseXml(res.text).rss.channel.item ?? [];
  };
  const rssTitles = async (query = '') => (await rssItems(query)).map((item: any) => text(item.title));

  beforeAll(async () => {
    // A first start, for the grants made on it.
    app = await setupStrapi({
      fresh: true,
      config: {
        site: { url: `${SITE}/`, title: SITE_TITLE, description: SITE_DESCRIPTION, paths: { article: '/{locale}/posts/{slug}' } },
        feeds: { size: 4 },
      },
      env: { PUBLIC_URL: HOST },
    });
    const { strapi } = app;
    await addLocales(strapi, EXTRA_LOCALES.filter((locale) => locale.code === 'fr'));
    const author = await createUser(strapi, { username: 'ada' });
    const cover = await strapi.db.query('plugin::upload.file').create({
      data: { name: 'cover.png', hash: 'cover_hash', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/cover.png', provider: 'local' },
    });
    docs.tech = await localizedDocument(strapi, CATEGORY, { en: { title: 'Tech & Science', slug: 'tech' }, fr: { title: 'Technique', slug: 'technique' } });
    docs.news = (await createDocument(strapi, CATEGORY, { title: 'News', slug: 'news' })) as Doc;
    docs.ts = (await createDocument(strapi, TAG, { title: 'TypeScript', slug: 'ts' })) as Doc;

    const article = async (slug: string, publishedAt: string, data: Record<string, unknown> = {}) => {
      const doc = (await createDocument(strapi, ARTICLE, { title: slug[0].toUpperCase() + slug.slice(1), slug, summary: `About ${slug}`, author: author.documentId, ...data })) as Doc;
      await setPublishedAt(strapi, ARTICLE, doc.documentId, publishedAt);
      docs[slug] = doc;
    };
    await article('first', '2024-01-01T00:00:00Z', { category: docs.tech.documentId, tags: [docs.ts.documentId] });
    await article('second', '2024-02-01T00:00:00Z', { category: docs.news.documentId });
    await article('third', '2024-03-01T00:00:00Z', { category: docs.tech.documentId, tags: [docs.ts.documentId] });
    await article('fourth', '2024-04-01T00:00:00Z', { tags: [docs.ts.documentId], cover: cover.id });
    await article('fifth', '2024-05-01T00:00:00Z', { title: TRICKY, summary: `<script>alert("x")</script> & more\u0002` });
    docs.draft = (await createDocument(strapi, ARTICLE, { title: 'Draft', slug: 'draft', category: docs.tech.documentId }, { publish: false })) as Doc;
    // A French-only article, published later than every English one.
    docs.premier = await localizedDocument(strapi, ARTICLE, {
      fr: { title: 'Premier', slug: 'premier', summary: 'À propos', category: docs.tech.documentId, author: author.documentId },
    });
    await setPublishedAt(strapi, ARTICLE, docs.premier.documentId, '2024-06-01T00:00:00Z', 'fr');
  });

  afterAll(async () => {
    await app.stop();
  });

  it.each(['public', 'authenticated'])('grants the feed and sitemap actions to the %s role on first start', async (type) => {
    const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type }, populate: ['permissions'] });
    const actions = role.permissions.map((permission: { action: string }) => permission.action);
    const expected = ['feed.rss', 'feed.atom', 'feed.json', 'sitemap.index', 'sitemap.page'].map((action) => `${PLUGIN}.${action}`);
    expect(actions).toEqual(expect.arrayContaining(expected));
  });

  it('answers the host 403 once an administrator revokes a feed from Public', async () => {
    await setPermission(app.strapi, 'public', `${PLUGIN}.feed.atom`, false);
    try {
      expect((await get('/articles.atom')).status).toBe(403);
    } finally {
      await setPermission(app.strapi, 'public', `${PLUGIN}.feed.atom`, true);
    }
    expect((await get('/articles.atom')).status).toBe(200);
  });

  it('RSS 2.0: a channel with title, link and description, the newest feeds.size items with every field', async () => {
    const res = await get('/articles.rss');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');

    const feed = await reader.parseString(res.text);
    expect(feed.title).toBe(SITE_TITLE);
    expect(feed.link).toBe(SITE);
    expect(feed.description).toBe(SITE_DESCRIPTION);
    expect(feed.items.map((item) => item.link)).toEqual(['fifth', 'fourth', 'third', 'second'].map((slug) => `${SITE}/en/posts/${slug}`));

    const doc = parseXml(res.text);
    expect(doc.rss['@version']).toBe('2.0');
    const items = doc.rss.channel.item;
    const third = items[2];
    expect(text(third.title)).toBe('Third');
    expect(text(third.description)).toBe('About third');
    expect(text(third.guid)).toBe(`urn:cms-plugin-bag:article:${docs.third.documentId}:en`);
    expect(third.guid['@isPermaLink']).toBe('false');
    expect(text(third.pubDate)).toBe(new Date('2024-03-01T00:00:00Z').toUTCString());
    expect(text(third['dc:creator'])).toBe('ada');
    expect(third.category.map(text)).toEqual(['Tech & Science', 'TypeScript']);
    expect(third.enclosure).toBeUndefined();

    const enclosure = items[1].enclosure;
    expect(enclosure['@url']).toBe(`${HOST}/uploads/cover.png`);
    expect(enclosure['@length']).toBe(String(1.5 * 1024));
    expect(enclosure['@type']).toBe('image/png');
  });

  it('Atom 1.0: feed id, title, updated; entries with id, title, updated, alternate link, categories and the cover as enclosure', async () => {
    const res = await get('/articles.atom');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect((await reader.parseString(res.text)).items).toHaveLength(4);

    const { feed } = parseXml(res.text);
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(text(feed.id)).toBe(`${HOST}/api/bag/feeds/articles.atom`);
    expect(text(feed.title)).toBe(SITE_TITLE);
    expect(text(feed.updated)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(feed.entry).toHaveLength(4);
    for (const entry of feed.entry) {
      expect(text(entry.id)).toMatch(/^urn:cms-plugin-bag:article:\w+:en$/);
      expect(text(entry.title)).not.toBe('');
      expect(text(entry.updated)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(entry.link.filter((link: any) => link['@rel'] === 'alternate')).toHaveLength(1);
    }
    const [, fourth, third] = feed.entry;
    expect(third.link[0]['@href']).toBe(`${SITE}/en/posts/third`);
    expect(text(third.published)).toBe('2024-03-01T00:00:00Z');
    expect(text(third.author.name)).toBe('ada');
    expect(third.category.map((category: any) => category['@term'])).toEqual(['Tech & Science', 'TypeScript']);
    const enclosure = fourth.link.find((link: any) => link['@rel'] === 'enclosure');
    expect(enclosure['@href']).toBe(`${HOST}/uploads/cover.png`);
    expect(enclosure['@type']).toBe('image/png');
  });

  it('JSON Feed 1.1: version, title, items with id, url, dates, authors, tags and image', async () => {
    const res = await get('/articles.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    const feed = JSON.parse(res.text);
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe(SITE_TITLE);
    expect(feed.home_page_url).toBe(SITE);
    expect(feed.items.map((item: { url: string }) => item.url)).toEqual(['fifth', 'fourth', 'third', 'second'].map((slug) => `${SITE}/en/posts/${slug}`));
    for (const item of feed.items) {
      expect(typeof item.id).toBe('string');
      expect(typeof item.content_text === 'string' || typeof item.content_html === 'string').toBe(true);
    }
    const [, fourth, third] = feed.items;
    expect(third).toMatchObject({
      id: `urn:cms-plugin-bag:article:${docs.third.documentId}:en`,
      title: 'Third',
      summary: 'About third',
      date_published: '2024-03-01T00:00:00.000Z',
      authors: [{ name: 'ada' }],
      tags: ['Tech & Science', 'TypeScript'],
    });
    expect(third.image).toBeUndefined();
    expect(fourth.image).toBe(`${HOST}/uploads/cover.png`);
  });

  it('escapes every text and strips control characters', async () => {
    const res = await get('/articles.rss');
    expect(res.text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(res.text).toContain('<title>Bag &lt;News&gt; &amp; &quot;Friends&quot;</title>');
    const fifth = parseXml(res.text).rss.channel.item[0];
    expect(text(fifth.title)).toBe(TRICKY_CLEAN);
    expect(text(fifth.description)).toBe('<script>alert("x")</script> & more');

    const atom = await get('/articles.atom');
    expect(text(parseXml(atom.text).feed.entry[0].title)).toBe(TRICKY_CLEAN);
    const json = JSON.parse((await get('/articles.json')).text);
    expect(json.items[0].title).toBe(TRICKY_CLEAN);
  });

  it('narrows to a locale: its published versions, linked with its code; an unknown locale is 400', async () => {
    const items = await rssItems('?locale=fr');
    expect(items.map((item: any) => text(item.link[0]))).toEqual([`${SITE}/fr/posts/premier`]);
    expect(text(items[0].guid)).toBe(`urn:cms-plugin-bag:article:${docs.premier.documentId}:fr`);
    expect(items[0].category.map(text)).toEqual(['Technique']);
    expect(text(parseXml((await get('/articles.atom?locale=fr')).text).feed.entry[0].link[0]['@href'])).toBe(`${SITE}/fr/posts/premier`);
    expect(JSON.parse((await get('/articles.json?locale=fr')).text).language).toBe('fr');

    const res = await get('/articles.json?locale=xx');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'Unknown locale supplied' });
  });

  it('narrows to a category or a tag by slug (in the locale read); an unknown slug is 404', async () => {
    expect(await rssTitles('?category=tech')).toEqual(['Third', 'First']);
    expect(await rssTitles('?category=news')).toEqual(['Second']);
    expect(await rssTitles('?tag=ts')).toEqual(['Fourth', 'Third', 'First']);
    expect(await rssTitles('?category=tech&tag=ts')).toEqual(['Third', 'First']);
    expect(await rssTitles('?category=technique&locale=fr')).toEqual(['Premier']);
    // A category without a version in the locale read is unknown there.
    expect((await get('/articles.rss?category=news&locale=fr')).status).toBe(404);

    for (const format of ['rss', 'atom', 'json']) {
      const category = await get(`/articles.${format}?category=nope`);
      expect(category.status).toBe(404);
      expect(category.body).toEqual({ data: null, error: expect.objectContaining({ status: 404, name: 'NotFoundError', message: 'Category not found' }) });
      const tag = await get(`/articles.${format}?tag=nope`);
      expect(tag.status).toBe(404);
      expect(tag.body.error).toMatchObject({ status: 404, message: 'Tag not found' });
    }
    // The French slug is not the English version's.
    expect((await get('/articles.rss?category=technique')).status).toBe(404);
    const twice = await get('/articles.rss?tag=ts&tag=js');
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({ name: 'ValidationError', message: 'tag must be one slug' });
    expect((await get('/articles.rss?category=%00')).status).toBe(400);
  });

  it('keeps an item id across edits and republishing; never lists drafts; an unpublished article leaves the feed', async () => {
    const before = await rssItems('?category=tech');
    await app.strapi.documents(ARTICLE as never).update({ documentId: docs.third.documentId, data: { title: 'Third, edited' } } as never);
    await app.strapi.documents(ARTICLE as never).publish({ documentId: docs.third.documentId } as never);
    await setPublishedAt(app.strapi, ARTICLE, docs.third.documentId, '2024-03-01T00:00:00Z');
    const after = await rssItems('?category=tech');
    expect(after.map((item: any) => text(item.title))).toEqual(['Third, edited', 'First']);
    expect(text(after[0].guid)).toBe(text(before[0].guid));

    const all = JSON.parse((await get('/articles.json')).text).items.map((item: { title: string }) => item.title);
    expect(all).not.toContain('Draft');

    await app.strapi.documents(ARTICLE as never).unpublish({ documentId: docs.fifth.documentId } as never);
    expect(await rssTitles()).toEqual(['Fourth', 'Third, edited', 'Second', 'First']);
  });
});

describe('discovery without site.url', () => {
  let app: TestApp;

  beforeAll(async () => {
    // The playground sets a default site.url; an empty SITE_URL leaves it unset.
    app = await setupStrapi({ env: { SITE_URL: '' } });
  });

  afterAll(async () => {
    await app.stop();
  });

  it.each(['/feeds/articles.rss', '/feeds/articles.atom', '/feeds/articles.json', '/sitemap.xml', '/sitemaps/1.xml', '/articles/any/comments.rss'])(
    '%s answers 503 Site URL is not configured',
    async (path) => {
      const res = await app.request().get(`/api/bag${path}`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'Site URL is not configured', details: {} } });
    }
  );
});

describe("discovery with the playground's defaults", () => {
  let app: TestApp;

  beforeAll(async () => {
    // PORT as an operator leaves it (the harness listens on a free port of its own); no PUBLIC_URL, SITE_URL or site config.
    app = await setupStrapi({ env: { PORT: '1337' } });
    await createDocument(app.strapi, ARTICLE, { title: 'Demo', slug: 'demo' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('serves feeds and the sitemap out of the box, linking to the demo page and naming the server on localhost', async () => {
    const rss = await app.request().get('/api/bag/feeds/articles.rss').expect(200);
    const channel = parseXml(rss.text).rss.channel;
    expect(text(channel.link[0])).toBe('http://localhost:1337');
    expect(channel['atom:link']['@href']).toBe('http://localhost:1337/api/bag/feeds/articles.rss');
    expect(channel.item.map((item: any) => text(item.link[0]))).toEqual(['http://localhost:1337/example.html?article=demo&locale=en']);
    const sitemap = await app.request().get('/api/bag/sitemap.xml').expect(200);
    expect(parseXml(sitemap.text).urlset.url.map((url: any) => text(url.loc))).toEqual(['http://localhost:1337/example.html?article=demo&locale=en']);
  });
});
