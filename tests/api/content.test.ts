import { createDocument, createUser, jwtFor, setPermission, type TestUser } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, withOutputSanitizer, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const BANNER = `${PLUGIN}.banner`;

type Doc = { id: number; documentId: string };

describe('content endpoints under /api/bag', () => {
  let app: TestApp;
  let author: TestUser;
  let tech: Doc;
  let news: Doc;
  let tagTs: Doc;
  let tagJs: Doc;
  let image: { id: number };
  let changed: Doc;

  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const slugs = (body: { data: { slug: string }[] }) => body.data.map((article) => article.slug);
  /**
   * The body of `GET path` and, by table, the SQL statements that read it (`reading(table)`); expects every link table
   * of the default populate read in one statement and the tags in one.
   */
  const readingLinksOnce = async (path: string) => {
    const sql: string[] = [];
    const listen = (query: { sql: string }) => sql.push(query.sql);
    app.strapi.db.connection.on('query', listen);
    let body: { data: Record<string, unknown> };
    try {
      body = (await get(path).expect(200)).body;
    } finally {
      app.strapi.db.connection.off('query', listen);
    }
    const reading = (table: string) =>
      sql.filter((statement) => statement.includes(`\`${table}\``) || statement.includes(`"${table}"`));
    expect(reading('bag_articles_tags_lnk')).toHaveLength(1);
    expect(reading('bag_articles_tags_lnk')).toEqual(reading('files_related_mph'));
    expect(reading('bag_articles_tags_lnk')).toEqual(reading('bag_articles_category_lnk'));
    expect(reading('bag_tags')).toHaveLength(1);
    return { body, reading };
  };

  /** Sets the published row's publication time, so ordering does not depend on how fast the setup ran. */
  const setPublishedAt = (uid: string, documentId: string, iso: string) =>
    app.strapi.db
      .query(uid as never)
      .updateMany({ where: { documentId, publishedAt: { $notNull: true } }, data: { publishedAt: new Date(iso) } });

  const article = async (slug: string, data: Record<string, unknown>, publishedAt?: string, publish = true) => {
    const doc = await createDocument(app.strapi, ARTICLE, { title: slug.toUpperCase(), slug, author: author.documentId, ...data }, { publish });
    if (publishedAt) await setPublishedAt(ARTICLE, doc.documentId, publishedAt);
    return doc as Doc;
  };

  beforeAll(async () => {
    // A first start, for the grants made on it.
    app = await setupStrapi({ fresh: true });
    const { strapi } = app;
    author = await createUser(strapi);
    image = await strapi.db.query('plugin::upload.file').create({
      data: { name: 'cover.png', hash: 'cover_hash', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/cover.png', provider: 'local', width: 10, height: 10 },
    });
    tech = (await createDocument(strapi, `${PLUGIN}.category`, { title: 'Tech', slug: 'tech' })) as Doc;
    news = (await createDocument(strapi, `${PLUGIN}.category`, { title: 'News', slug: 'news' })) as Doc;
    await createDocument(strapi, `${PLUGIN}.category`, { title: 'Frontend', slug: 'frontend', parent: tech.documentId });
    await createDocument(strapi, `${PLUGIN}.category`, { title: 'Backend', slug: 'backend', parent: tech.documentId });
    tagTs = (await createDocument(strapi, `${PLUGIN}.tag`, { title: 'TypeScript', slug: 'ts' })) as Doc;
    tagJs = (await createDocument(strapi, `${PLUGIN}.tag`, { title: 'JavaScript', slug: 'js' })) as Doc;

    await article('old-top', { isTop: true, category: tech.documentId, tags: [tagTs.documentId] }, '2024-01-01T00:00:00Z');
    await article('new-top', { isTop: true, category: news.documentId, cover: image.id }, '2024-03-01T00:00:00Z');
    await article('plain-1', { category: tech.documentId, tags: [tagTs.documentId, tagJs.documentId] }, '2024-02-01T00:00:00Z');
    await article('plain-2', { category: news.documentId, tags: [tagJs.documentId] }, '2024-04-01T00:00:00Z');
    await article('plain-3', { category: tech.documentId }, '2024-05-01T00:00:00Z');
    changed = await article('changed', { title: 'Published title', category: news.documentId }, '2023-06-01T00:00:00Z');
    await app.strapi.documents(ARTICLE as never).update({ documentId: changed.documentId, data: { title: 'Draft title' } as never });
    await article('draft-only', { isTop: true, category: tech.documentId }, undefined, false);

    await createDocument(strapi, PAGE, {
      title: 'About',
      slug: 'about',
      seoTitle: 'About us',
      seoKeywords: 'a, b',
      seoDescription: 'Who we are',
      cover: image.id,
    });
    await createDocument(strapi, PAGE, { title: 'Hidden', slug: 'hidden' }, { publish: false });

    const banner = (title: string, data: Record<string, unknown>, publish = true) =>
      createDocument(strapi, BANNER, { title, image: image.id, ...data }, { publish });
    await banner('home-2', { order: 2 });
    await banner('home-1b', { order: 1 });
    await banner('home-1a-later-id', { order: 1 });
    await banner('home-hidden', { order: 0, isVisible: false });
    await banner('home-draft', { order: 0 }, false);
    await banner('blog-1', { order: 1, group: 'blog' });
    await banner('blog-0', { order: 0, group: 'blog' });
  });
  afterAll(async () => {
    await app.stop();
  });

  describe('permissions', () => {
    const ACTIONS = ['article.find', 'article.findOne', 'page.find', 'page.findOne', 'banner.find', 'banner.findByGroup', 'category.find', 'tag.find', 'menu.findOne'];

    it.each(['public', 'authenticated'])('grants every content route to the %s role on first start', async (type) => {
      const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type }, populate: ['permissions'] });
      const actions = role.permissions.map((permission: { action: string }) => permission.action);
      expect(actions).toEqual(expect.arrayContaining(ACTIONS.map((action) => `${PLUGIN}.${action}`)));
    });

    it('answers the host 403 once an administrator revokes a route from Public', async () => {
      await setPermission(app.strapi, 'public', `${PLUGIN}.tag.find`, false);
      try {
        await get('/tags').expect(403);
      } finally {
        await setPermission(app.strapi, 'public', `${PLUGIN}.tag.find`, true);
      }
      await get('/tags').expect(200);
    });
  });

  describe('GET /articles', () => {
    const DEFAULT_ORDER = ['new-top', 'old-top', 'plain-3', 'plain-2', 'plain-1', 'changed'];

    it('lists published articles, pinned first, then newest first, with meta.pagination', async () => {
      const res = await get('/articles').expect(200);
      expect(slugs(res.body)).toEqual(DEFAULT_ORDER);
      expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 6 });
    });

    it('serves the published version of an article that has newer draft changes, never a draft', async () => {
      const res = await get('/articles').expect(200);
      const titles = res.body.data.map((a: { title: string }) => a.title);
      expect(titles).toContain('Published title');
      expect(titles).not.toContain('Draft title');
      expect(res.body.data.every((a: { publishedAt: string | null }) => a.publishedAt)).toBe(true);
    });

    it('populates category, tags, cover and author by default; the author is { id, documentId, username }', async () => {
      const res = await get('/articles').expect(200);
      const newTop = res.body.data.find((a: { slug: string }) => a.slug === 'new-top');
      expect(newTop.category).toMatchObject({ slug: 'news', documentId: news.documentId });
      expect(newTop.tags).toEqual([]);
      expect(newTop.cover).toMatchObject({ id: image.id, url: '/uploads/cover.png' });
      expect(newTop.author).toEqual({ id: author.id, documentId: author.documentId, username: author.username });
      const plain1 = res.body.data.find((a: { slug: string }) => a.slug === 'plain-1');
      expect(plain1.tags.map((t: { slug: string }) => t.slug).sort()).toEqual(['js', 'ts']);
      expect(JSON.stringify(res.body)).not.toContain(author.email);
      expect(newTop).not.toHaveProperty('comments');
    });

    it('lets an explicit sort replace the default order', async () => {
      const res = await get('/articles?sort=publishedAt:asc').expect(200);
      expect(slugs(res.body)).toEqual(['changed', 'old-top', 'plain-1', 'new-top', 'plain-2', 'plain-3']);
      const bySlug = await get('/articles?sort[0]=slug:desc').expect(200);
      expect(slugs(bySlug.body)).toEqual([...DEFAULT_ORDER].sort().reverse());
    });

    it('paginates by page and pageSize', async () => {
      const res = await get('/articles?pagination[page]=2&pagination[pageSize]=4').expect(200);
      expect(slugs(res.body)).toEqual(DEFAULT_ORDER.slice(4, 8));
      expect(res.body.meta.pagination).toEqual({ page: 2, pageSize: 4, pageCount: 2, total: 6 });
    });

    it('paginates by start and limit, reporting start/limit like the host and page/pageSize as well (docs/content.md#how-it-behaves)', async () => {
      const res = await get('/articles?pagination[start]=2&pagination[limit]=2').expect(200);
      expect(slugs(res.body)).toEqual(DEFAULT_ORDER.slice(2, 4));
      expect(res.body.meta.pagination).toEqual({ start: 2, limit: 2, total: 6, page: 2, pageSize: 2, pageCount: 3 });
    });

    it('filters by category slug and by tag slug', async () => {
      const byCategory = await get('/articles?filters[category][slug][$eq]=tech').expect(200);
      expect(slugs(byCategory.body)).toEqual(['old-top', 'plain-3', 'plain-1']);
      expect(byCategory.body.meta.pagination.total).toBe(3);
      const byTag = await get('/articles?filters[tags][slug][$eq]=js').expect(200);
      expect(slugs(byTag.body)).toEqual(['plain-2', 'plain-1']);
    });

    it('supports fields and an explicit populate', async () => {
      const res = await get('/articles?fields[0]=title&populate[0]=category&sort=slug:asc').expect(200);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(['category', 'documentId', 'id', 'title']);
      expect(res.body.data[0].category.slug).toBe('news');
    });

    it.each([
      ['a filter on the author password', 'filters[author][password][$eq]=x'],
      ['a filter on the author e-mail', 'filters[author][email][$eq]=x'],
      ['a populate of the author password', 'populate[author][fields][0]=password'],
      ['a sort on the author e-mail', 'sort=author.email:asc'],
      ['an unknown filter field', 'filters[nope][$eq]=1'],
      ['a non-numeric page', 'pagination[page]=abc'],
      ['page and offset pagination together', 'pagination[page]=1&pagination[limit]=2'],
    ])('refuses %s with 400', async (_, query) => {
      const res = await get(`/articles?${query}`).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { status: 400 } });
    });

    it('cuts the author to { id, documentId, username } when populated explicitly', async () => {
      const res = await get('/articles?populate[author][fields][0]=username&populate[0]=category').expect(200);
      expect(res.body.data).toHaveLength(6);
      for (const a of res.body.data) expect(a.author).toEqual({ id: author.id, documentId: author.documentId, username: author.username });
    });

    it.each([
      ['the author e-mail', 'populate[author][fields][0]=email'],
      ['the author role', 'populate[author][populate]=role'],
    ])('refuses a populate of %s with 400', async (_, query) => {
      const res = await get(`/articles?${query}`).expect(400);
      expect(res.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    });

    it('expands populate=* without exposing admin users, comments or author fields', async () => {
      const res = await get('/articles?populate=*').expect(200);
      const newTop = res.body.data.find((a: { slug: string }) => a.slug === 'new-top');
      expect(newTop.category.slug).toBe('news');
      expect(newTop.cover).toMatchObject({ id: image.id });
      expect(newTop.author).toEqual({ id: author.id, documentId: author.documentId, username: author.username });
      for (const key of ['comments', 'createdBy', 'updatedBy']) expect(newTop).not.toHaveProperty(key);
      expect(JSON.stringify(res.body)).not.toMatch(/password|@example\.com/);
    });

    describe('its default populate, read without the host populate (docs/content.md#how-the-list-reads-its-relations)', () => {
      const EXPLICIT = 'populate[category]=true&populate[tags]=true&populate[cover]=true&populate[author]=true';
      let unique = 0;
      /** A filter true of every article, new each time, so no cached answer stands in for the read. */
      const fresh = () => `filters[title][$ne]=never-${(unique += 1)}`;

      it.each([
        ['the first page', ''],
        ['a later page', 'pagination[page]=2&pagination[pageSize]=2'],
        ['offset pagination', 'pagination[start]=1&pagination[limit]=3'],
        ['fields', 'fields[0]=title&fields[1]=slug'],
        ['a sort and a filter on a relation', 'sort=slug:asc&filters[tags][slug][$eq]=js'],
      ])('answers %s with the bytes of the same list with that populate asked for', async (_, query) => {
        const defaults = await get(`/articles?${fresh()}${query ? `&${query}` : ''}`).expect(200);
        const explicit = await get(`/articles?${fresh()}&${EXPLICIT}${query ? `&${query}` : ''}`).expect(200);
        expect(defaults.text).toBe(explicit.text);
        expect(defaults.body.data.length).toBeGreaterThan(0);
      });

      it('leaves out a relation the role may not read, as the host sanitizer does', async () => {
        await setPermission(app.strapi, 'public', `${PLUGIN}.category.find`, false);
        try {
          const defaults = await get(`/articles?${fresh()}`).expect(200);
          const explicit = await get(`/articles?${fresh()}&${EXPLICIT}`).expect(200);
          expect(defaults.body.data.some((a: Record<string, unknown>) => 'category' in a)).toBe(false);
          expect(defaults.body.data.find((a: { slug: string }) => a.slug === 'plain-1').tags).toHaveLength(2);
          expect(defaults.text).toBe(explicit.text);
        } finally {
          await setPermission(app.strapi, 'public', `${PLUGIN}.category.find`, true);
        }
        const restored = await get(`/articles?${fresh()}`).expect(200);
        expect(restored.body.data.every((a: Record<string, unknown>) => 'category' in a)).toBe(true);
      });

      it('sends every document through an output sanitizer the app registers, which may decide on values', async () => {
        // Drops the summary of one article only: a decision on a value, which one example document cannot stand for.
        const hideSummary = (schema: { uid?: string }) => async (entity: Record<string, unknown>) => {
          if (schema.uid !== ARTICLE || entity?.slug !== 'plain-3') return entity;
          const { summary: _summary, ...rest } = entity;
          return rest;
        };
        const list = await withOutputSanitizer(app.strapi, hideSummary, async () => (await get(`/articles?${fresh()}`).expect(200)).body.data as Record<string, unknown>[]);
        const bySlug = new Map(list.map((a) => [a.slug, a]));
        expect(list[0].slug).not.toBe('plain-3');
        expect(bySlug.get('plain-3')).not.toHaveProperty('summary');
        expect(bySlug.get('plain-1')).toHaveProperty('summary');
      });

      it('sanitizes a populate asked for, nested too, through one example document, as the host does each', async () => {
        const categories = app.strapi.documents(`${PLUGIN}.category` as never);
        const setParent = (parent: string | null) => categories.update({ documentId: news.documentId, data: { parent } as never });
        const nested = 'populate[category][populate][parent]=true&populate[tags][fields][0]=slug&populate[cover]=true&populate[author]=true';
        const sanitize = app.strapi.contentAPI.sanitize;
        const output = sanitize.output;
        const sizes: number[] = [];
        await setParent(tech.documentId);
        try {
          sanitize.output = ((data: unknown, ...rest: unknown[]) => {
            sizes.push(Array.isArray(data) ? data.length : 1);
            return (output as (...args: unknown[]) => unknown)(data, ...rest);
          }) as typeof output;
          const byExample = await get(`/articles?${fresh()}&${nested}`).expect(200);
          // The host's sanitizer saw one document for the page.
          expect(sizes).toEqual([1]);
          // Any output sanitizer of the app's own makes every document go through the host's sanitizer.
          const identity = () => async (entity: unknown) => entity;
          const eachByHost = await withOutputSanitizer(app.strapi, identity, async () => (await get(`/articles?${fresh()}&${nested}`).expect(200)).text);
          expect(byExample.text).toBe(eachByHost);
          const bySlug = new Map((byExample.body.data as { slug: string }[]).map((a) => [a.slug, a as Record<string, any>]));
          expect(bySlug.get('plain-2')!.category.parent).toMatchObject({ slug: 'tech' });
          expect(bySlug.get('plain-1')!.category.parent).toBeNull();
          expect(bySlug.get('plain-1')!.tags).toEqual([{ id: expect.any(Number), documentId: tagTs.documentId, slug: 'ts' }, { id: expect.any(Number), documentId: tagJs.documentId, slug: 'js' }]);
          // The file's private field is cut as the host cuts it.
          expect(bySlug.get('new-top')!.cover).toMatchObject({ url: '/uploads/cover.png' });
          expect(bySlug.get('new-top')!.cover).not.toHaveProperty('folderPath');
        } finally {
          sanitize.output = output;
          await setParent(null);
        }
      });

      it('reads every link table of the page in one statement, and each target type in one', async () => {
        const { reading } = await readingLinksOnce(`/articles?${fresh()}`);
        expect(reading('bag_categories')).toHaveLength(1);
      });
    });

    it('is granted to the Authenticated role too', async () => {
      const user = await createUser(app.strapi);
      const res = await get('/articles').set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).expect(200);
      expect(slugs(res.body)).toEqual(DEFAULT_ORDER);
    });
  });

  describe('GET /articles/:slug', () => {
    it('returns one populated article', async () => {
      const res = await get('/articles/plain-1').expect(200);
      expect(res.body.data).toMatchObject({ slug: 'plain-1', category: { slug: 'tech' } });
      expect(res.body.data.author).toEqual({ id: author.id, documentId: author.documentId, username: author.username });
      expect(res.body.data.tags).toHaveLength(2);
    });

    it('reads its relations as a list does: every link table in one statement, each target type in one', async () => {
      app.strapi.plugin('cms-plugin-bag').service('response-cache').clear();
      const { data } = (await readingLinksOnce('/articles/plain-1')).body;
      // The relations come after the fields, in populate order, as the host's populate places them.
      const keys = Object.keys(data);
      const relationsAt = keys.indexOf('category');
      expect(keys.slice(relationsAt, relationsAt + 4)).toEqual(['category', 'tags', 'cover', 'author']);
      expect(keys.indexOf('title')).toBeLessThan(keys.indexOf('category'));
      // The same bytes as the article in a list whose populate is asked for (read by the host's populate), but for
      // the detail's `localizations`; the list, read after, shows the count that includes the detail's read.
      const populate = 'populate[category]=true&populate[tags]=true&populate[cover]=true&populate[author]=true';
      const listed = (await get(`/articles?filters[slug][$eq]=plain-1&${populate}`).expect(200)).body.data[0];
      const { localizations: _localizations, ...detail } = data;
      expect(JSON.stringify(detail)).toBe(JSON.stringify(listed));
    });

    it('serves the published version when a newer draft exists', async () => {
      const res = await get('/articles/changed').expect(200);
      expect(res.body.data.title).toBe('Published title');
    });

    it.each(['no-such-article', 'draft-only'])('answers 404 Article not found for %s', async (slug) => {
      const res = await get(`/articles/${slug}`).expect(404);
      expect(res.body.error).toMatchObject({ status: 404, name: 'NotFoundError', message: 'Article not found' });
    });
  });

  describe('views', () => {
    const storedViews = async (uid: string, documentId: string) => {
      const rows = await app.strapi.db.query(uid as never).findMany({ where: { documentId }, select: ['views', 'publishedAt'] });
      return rows.map((row: { views: number }) => row.views);
    };

    it('counts each read in the response it returns', async () => {
      const first = await get('/articles/plain-2').expect(200);
      const second = await get('/articles/plain-2').expect(200);
      expect(second.body.data.views).toBe(first.body.data.views + 1);
    });

    it('adds exactly 200 for 200 concurrent reads, each seeing its own count, on draft and published rows', async () => {
      const doc = await article('hot', {}, '2020-01-01T00:00:00Z');
      const responses = await Promise.all(Array.from({ length: 200 }, () => get('/articles/hot')));
      expect(responses.map((res) => res.status).every((status) => status === 200)).toBe(true);
      const seen = responses.map((res) => res.body.data.views as number);
      expect(new Set(seen).size).toBe(200);
      expect(Math.max(...seen)).toBe(200);
      expect(await storedViews(ARTICLE, doc.documentId)).toEqual([200, 200]);
    });

    it('keeps the count across an edit and re-publish by an editor', async () => {
      const doc = await article('republished', { title: 'Before' }, '2020-01-02T00:00:00Z');
      for (let i = 0; i < 3; i += 1) await get('/articles/republished').expect(200);
      const documents = app.strapi.documents(ARTICLE as never);
      // The Content Manager sends the whole form: `views` as it was when the editor opened it.
      await documents.update({ documentId: doc.documentId, data: { title: 'After', views: 0 } as never });
      await get('/articles/republished').expect(200);
      await documents.publish({ documentId: doc.documentId });
      const res = await get('/articles/republished').expect(200);
      expect(res.body.data).toMatchObject({ title: 'After', views: 5 });
      expect(await storedViews(ARTICLE, doc.documentId)).toEqual([5, 5]);
    });
  });

  describe('pages', () => {
    it('lists published pages only', async () => {
      const res = await get('/pages').expect(200);
      expect(slugs(res.body)).toEqual(['about']);
      expect(res.body.meta.pagination.total).toBe(1);
    });

    it('returns a page with its SEO fields and counts the view', async () => {
      const first = await get('/pages/about').expect(200);
      expect(first.body.data).toMatchObject({
        title: 'About',
        seoTitle: 'About us',
        seoKeywords: 'a, b',
        seoDescription: 'Who we are',
        views: 1,
        cover: { id: image.id },
      });
      const second = await get('/pages/about').expect(200);
      expect(second.body.data.views).toBe(2);
    });

    it.each(['nope', 'hidden'])('answers 404 Page not found for %s', async (slug) => {
      const res = await get(`/pages/${slug}`).expect(404);
      expect(res.body.error).toMatchObject({ status: 404, message: 'Page not found' });
    });

    it('refuses a filter on an unknown field with 400', async () => {
      await get('/pages?filters[nope][$eq]=1').expect(400);
    });
  });

  describe('banners', () => {
    const titles = (body: { data: { title: string }[] }) => body.data.map((b) => b.title);

    it('lists published, visible banners by order then id, with the image', async () => {
      const res = await get('/banners').expect(200);
      expect(titles(res.body)).toEqual(['blog-0', 'home-1b', 'home-1a-later-id', 'blog-1', 'home-2']);
      expect(res.body.data[0].image).toMatchObject({ id: image.id, url: '/uploads/cover.png' });
    });

    it('filters by group', async () => {
      expect(titles((await get('/banners/home').expect(200)).body)).toEqual(['home-1b', 'home-1a-later-id', 'home-2']);
      expect(titles((await get('/banners/blog').expect(200)).body)).toEqual(['blog-0', 'blog-1']);
      expect((await get('/banners/none').expect(200)).body).toEqual({ data: [] });
    });
  });

  describe('categories and tags', () => {
    it('returns the categories as a tree', async () => {
      const res = await get('/categories').expect(200);
      const tree = res.body.data.map((c: { slug: string; children: { slug: string }[] }) => [c.slug, c.children.map((k) => k.slug)]);
      expect(tree).toEqual([
        ['news', []],
        ['tech', ['backend', 'frontend']],
      ]);
    });

    it('returns the tags', async () => {
      const res = await get('/tags').expect(200);
      expect(res.body.data.map((t: { slug: string }) => t.slug)).toEqual(['js', 'ts']);
    });
  });
});
