import { insertMenuItems } from '../helpers/menus';
import { forRequests } from '../helpers/statements';
import { PLUGIN, setupStrapi, withOutputSanitizer, type TestApp } from '../helpers/strapi';

const MENU = `${PLUGIN}.menu`;
const ITEM = `${PLUGIN}.menu-item`;
const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;

type Doc = { id: number; documentId: string };
interface Node {
  id: number;
  title: string;
  children: Node[];
  [key: string]: unknown;
}

/** Titles as nested [title, children] pairs (test data here is shallow, so recursion is fine). */
const shape = (nodes: Node[]): unknown[] => nodes.map((node) => (node.children.length ? [node.title, shape(node.children)] : node.title));

describe('GET /api/bag/menus/:slug', () => {
  let app: TestApp;
  let main: Doc;
  let other: Doc;

  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const menu = async (title: string, slug: string) =>
    (await app.strapi.documents(MENU as never).create({ data: { title, slug } as never })) as Doc;
  const item = async (menuDoc: Doc, title: string, order: number, parent?: Doc, extra: Record<string, unknown> = {}) =>
    (await app.strapi.documents(ITEM as never).create({
      data: { title, url: `/${title}`, order, menu: menuDoc.documentId, parent: parent?.documentId, ...extra } as never,
    })) as Doc;

  beforeAll(async () => {
    app = await setupStrapi();
    main = await menu('Main', 'main');
    other = await menu('Other', 'other');

    const icon = await app.strapi.db.query('plugin::upload.file').create({
      data: { name: 'blog.png', hash: 'blog_hash', ext: '.png', mime: 'image/png', size: 1, url: '/uploads/blog.png', provider: 'local' },
    });
    await item(main, 'Home', 0);
    const blog = await item(main, 'Blog', 1, undefined, { isHot: true, badge: 'new', image: icon.id });
    await item(main, 'About', 1, undefined, { target: '_blank', icon: 'info' });
    const tech = await item(main, 'Tech', 2, blog);
    await item(main, 'News', 1, blog);
    const frontend = await item(main, 'Frontend', 0, tech);
    await item(main, 'React', 5, frontend);
    await item(main, 'Vue', 5, frontend);

    const foreignParent = await item(other, 'Elsewhere', 0);
    await item(main, 'Orphan', 9, foreignParent);

    const cycleA = await item(main, 'CycleA', 7);
    const cycleB = await item(main, 'CycleB', 8, cycleA);
    await app.strapi.documents(ITEM as never).update({ documentId: cycleA.documentId, data: { parent: cycleB.documentId } as never });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('returns the menu with its items as a tree, siblings by order then id, 4 levels deep', async () => {
    const res = await get('/menus/main').expect(200);
    expect(res.body.data).toMatchObject({ id: expect.any(Number), documentId: main.documentId, title: 'Main', slug: 'main' });
    const items = res.body.data.items as Node[];
    expect(items.map((node) => node.title)).toEqual(['Home', 'Blog', 'About', expect.stringMatching(/^Cycle[AB]$/), 'Orphan']);
    expect(shape(items.slice(0, 3))).toEqual(['Home', ['Blog', ['News', ['Tech', [['Frontend', ['React', 'Vue']]]]]], 'About']);
  });

  it('puts one item of a parent cycle at the root and keeps every item exactly once', async () => {
    const res = await get('/menus/main').expect(200);
    const cycleRoot = (res.body.data.items as Node[]).find((node) => node.title.startsWith('Cycle'))!;
    expect(cycleRoot.children).toHaveLength(1);
    expect(new Set([cycleRoot.title, cycleRoot.children[0].title])).toEqual(new Set(['CycleA', 'CycleB']));
    expect(cycleRoot.children[0].children).toEqual([]);
  });

  it('shows an item whose parent belongs to another menu at the root, and never the foreign item', async () => {
    const res = await get('/menus/main').expect(200);
    expect(JSON.stringify(res.body)).not.toContain('Elsewhere');
    expect((res.body.data.items as Node[]).at(-1)).toMatchObject({ title: 'Orphan', children: [] });
    const otherMenu = await get('/menus/other').expect(200);
    expect(shape(otherMenu.body.data.items)).toEqual(['Elsewhere']);
  });

  it('gives each node every attribute of the menu-item type, the custom ones included (media populated), but not menu or parent', async () => {
    const res = await get('/menus/main').expect(200);
    const blog = (res.body.data.items as Node[]).find((node) => node.title === 'Blog')!;
    expect(blog).toMatchObject({ url: '/Blog', target: '_self', icon: null, isHot: true, order: 1, badge: 'new' });
    expect(blog).toMatchObject({ image: { name: 'blog.png', url: '/uploads/blog.png' } });
    expect(blog).toHaveProperty('documentId');
    expect(blog).not.toHaveProperty('menu');
    expect(blog).not.toHaveProperty('parent');
    const about = (res.body.data.items as Node[]).find((node) => node.title === 'About')!;
    expect(about).toMatchObject({ target: '_blank', icon: 'info', isHot: false, badge: null, image: null });
  });

  describe('sanitized through one example item', () => {
    // Each read below is computed, not answered from the response cache.
    const read = (slug: string) => {
      app.strapi.plugin('cms-plugin-bag').service('response-cache').clear();
      return get(`/menus/${slug}`).expect(200);
    };

    it('answers what the host sanitizer gives item by item', async () => {
      const byExample = (await read('main')).body;
      // Any output sanitizer of the app's own makes every item go through the host's sanitizer.
      const itemByItem = (await withOutputSanitizer(app.strapi, () => async (entity: unknown) => entity, () => read('main'))).body;
      expect(byExample).toEqual(itemByItem);
      // The media's private field, which the items' read holds, is cut from every item as the host cuts it.
      const blog = (byExample.data.items as Node[]).find((node) => node.title === 'Blog')!;
      expect(blog.image).toMatchObject({ url: '/uploads/blog.png' });
      expect(blog.image).not.toHaveProperty('folderPath');
    });

    it('sends every item through an output sanitizer the app registers, which may decide on values', async () => {
      const hideBadge = (schema: { uid?: string }) => async (entity: Record<string, unknown>) => {
        if (schema.uid !== ITEM || entity?.title !== 'Blog') return entity;
        const { badge: _badge, ...rest } = entity;
        return rest;
      };
      const res = await withOutputSanitizer(app.strapi, hideBadge, () => read('main'));
      const items = res.body.data.items as Node[];
      expect(items.find((node) => node.title === 'Blog')).not.toHaveProperty('badge');
      expect(items.find((node) => node.title === 'About')).toHaveProperty('badge', null);
    });
  });

  it('serves relations to draft & publish types (added by the extension) in their published version only', async () => {
    const links = await menu('Links', 'links');
    const documents = (uid: string) => app.strapi.documents(uid as never);
    const publish = (uid: string, documentId: string) => documents(uid).publish({ documentId } as never);
    const create = async (uid: string, title: string, published: boolean) => {
      const doc = (await documents(uid).create({ data: { title, slug: title.toLowerCase().replace(/ /g, '-') } as never })) as Doc;
      if (published) await publish(uid, doc.documentId);
      return doc;
    };
    const editDraft = (uid: string, doc: Doc, title: string) => documents(uid).update({ documentId: doc.documentId, data: { title } as never });

    const edited = await create(ARTICLE, 'Article live', true);
    await editDraft(ARTICLE, edited, 'Article draft edit');
    const unpublished = await create(ARTICLE, 'Article never published', false);
    const publishedLater = await create(ARTICLE, 'Article published later', false);
    const pageEdited = await create(PAGE, 'Page live', true);
    await editDraft(PAGE, pageEdited, 'Page draft edit');
    const pageUnpublished = await create(PAGE, 'Page never published', false);
    const pagePlain = await create(PAGE, 'Page plain', true);

    await item(links, 'Edited', 0, undefined, { article: edited.documentId, pages: [pageEdited.documentId, pageUnpublished.documentId, pagePlain.documentId] });
    await item(links, 'Unpublished', 1, undefined, { article: unpublished.documentId, pages: [pageUnpublished.documentId] });
    // Linked while it had only a draft, published afterwards.
    await item(links, 'Later', 2, undefined, { article: publishedLater.documentId });
    await publish(ARTICLE, publishedLater.documentId);

    const res = await get('/menus/links').expect(200);
    const [editedNode, unpublishedNode, laterNode] = res.body.data.items as Node[];
    expect(editedNode.article).toMatchObject({ documentId: edited.documentId, title: 'Article live', publishedAt: expect.any(String) });
    const pages = editedNode.pages as { documentId: string; title: string; publishedAt: string | null }[];
    expect(pages.map((page) => page.title).sort()).toEqual(['Page live', 'Page plain']);
    expect(pages.every((page) => page.publishedAt)).toBe(true);
    expect(unpublishedNode).toMatchObject({ title: 'Unpublished', article: null, pages: [] });
    expect(laterNode.article).toMatchObject({ documentId: publishedLater.documentId, title: 'Article published later', publishedAt: expect.any(String) });
    const body = JSON.stringify(res.body);
    for (const hidden of ['draft edit', 'never published', '"publishedAt":null']) expect(body).not.toContain(hidden);
  });

  it('answers 404 Menu not found for an unknown slug', async () => {
    const res = await get('/menus/nope').expect(404);
    expect(res.body).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Menu not found' } });
  });

  const bulkItems = (menuDoc: Doc, prefix: string, count: number, chain: boolean) =>
    insertMenuItems(app.strapi, menuDoc, prefix, count, chain);

  it('serves a 10,000-deep chain of items without overflowing the stack', async () => {
    const deep = await menu('Deep', 'deep');
    await bulkItems(deep, 'deep-', 10_000, true);
    const res = await get('/menus/deep').expect(200);
    expect(res.body.data.items).toHaveLength(1);
    let node = res.body.data.items[0] as Node;
    let depth = 1;
    while (node.children.length > 0) {
      expect(node.children).toHaveLength(1);
      node = node.children[0];
      depth += 1;
    }
    expect(depth).toBe(10_000);
    expect(node.title).toBe('deep-9999');
  });

  it('reads a menu with a fixed number of queries, however many items it has', async () => {
    const small = await menu('Small', 'small');
    await bulkItems(small, 'small-', 3, false);
    const large = await menu('Large', 'large');
    await bulkItems(large, 'large-', 500, false);
    const countQueries = async (slug: string) => {
      let queries = 0;
      const onQuery = forRequests(() => {
        queries += 1;
      });
      app.strapi.db.connection.on('query', onQuery);
      try {
        const res = await get(`/menus/${slug}`).expect(200);
        return { queries, items: (res.body.data.items as Node[]).length };
      } finally {
        app.strapi.db.connection.removeListener('query', onQuery);
      }
    };
    const smallRun = await countQueries('small');
    const largeRun = await countQueries('large');
    expect(smallRun.items).toBe(3);
    expect(largeRun.items).toBe(500);
    expect(largeRun.queries).toBe(smallRun.queries);
  });
});
