/**
 * Search that forgives typos (docs/search.md#typos and the sections after it): typo budgets by word length, exact hits
 * first, the last word as a prefix, phrases and exclusions, pages and `type=all`, facets over every hit, a suggestion
 * when nothing is found, the suggest route (published only, bounded, cached and revalidated), `typos=false`, and
 * results following every publish, unpublish, edit and delete. One Strapi boot.
 */
import { isPostgres, PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const CATEGORY = `${PLUGIN}.category`;
const TAG = `${PLUGIN}.tag`;

interface Hit {
  type?: string;
  slug: string;
  title: string;
  summary: string | null;
  highlight: { title: string; excerpt: string };
}

describe('GET /api/bag/search: typos, prefixes, phrases, pages, facets (docs/search.md)', () => {
  let app: TestApp;
  let seq = 0;
  const documents = (uid: string) => app.strapi.documents(uid as never) as any;
  const search = (query: Record<string, unknown>) => app.request().get('/api/bag/search').query(query);
  const suggest = (query: Record<string, unknown>) => app.request().get('/api/bag/search/suggest').query(query);
  const slugs = async (query: Record<string, unknown>): Promise<string[]> => {
    const res = await search(query);
    expect([JSON.stringify(query), res.status]).toEqual([JSON.stringify(query), 200]);
    return (res.body.data as Hit[]).map((hit) => hit.slug);
  };
  const create = async (uid: string, fields: Record<string, unknown>, publish = true) => {
    seq += 1;
    const created = await documents(uid).create({ locale: 'en', data: { slug: `s-${seq}`, ...fields } });
    if (publish) await documents(uid).publish({ documentId: created.documentId, locale: 'en' });
    return created as { documentId: string };
  };
  const article = (fields: Record<string, unknown>, publish = true) => create(ARTICLE, fields, publish);

  beforeAll(async () => {
    app = await setupStrapi();
    const tech = await documents(CATEGORY).create({ locale: 'en', data: { title: 'Tech', slug: 'tech' } });
    const life = await documents(CATEGORY).create({ locale: 'en', data: { title: 'Life', slug: 'life' } });
    const js = await documents(TAG).create({ locale: 'en', data: { title: 'JS', slug: 'js' } });
    const go = await documents(TAG).create({ locale: 'en', data: { title: 'Go', slug: 'go' } });
    await article({ slug: 'receive', title: 'How to receive parcels', content: 'Parcels arrive daily.' });
    await article({ slug: 'kiwi', title: 'Kiwi birds', content: 'Small birds.' });
    await article({ slug: 'zebra', title: 'Zebra stripes', content: 'Black and white.' });
    await article({ slug: 'hippo', title: 'Hippopotamus facts', content: 'A large animal.' });
    await article({ slug: 'hippo-draft', title: 'Hippo draft notes', content: 'Unpublished.' }, false);
    // The exact word only in the content, the one an edit away three times in the title: exact still ranks first.
    await article({ slug: 'breed', title: 'Breed breed breed', content: 'Dogs.' });
    await article({ slug: 'bread', title: 'Kitchen notes', content: 'We bake bread on Sundays.' });
    await article({ slug: 'red-fox', title: 'Red fox jumps', content: 'Over the fence.' });
    await article({ slug: 'fox-red', title: 'Fox red sunset', content: 'A colour.' });
    await article({ slug: 'lighthouse-post', title: 'Lighthouse of the north', content: 'Tall.' });
    await article({ slug: 'f1', title: 'Nebula one', content: 'x', category: tech.documentId, tags: [js.documentId, go.documentId] });
    await article({ slug: 'f2', title: 'Nebula two', content: 'x', category: tech.documentId, tags: [js.documentId] });
    await article({ slug: 'f3', title: 'Nebula three', content: 'x', category: life.documentId });
    await create(PAGE, { slug: 'harbour', title: 'Harbour hours', seoDescription: 'Lighthouse tours daily', content: 'Open all year.' });
    await create(PAGE, { slug: 'hippodrome', title: 'Hippodrome', content: 'Races.' });
    await create(PAGE, { slug: 'page-draft', title: 'Hippocampus draft', content: 'Unpublished.' }, false);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it('forgives typos by word length: 5–8 characters one edit, 9 or more two, under 5 none', async () => {
    expect(await slugs({ q: 'recieve' })).toEqual(['receive']); // swap of neighbours, 7 characters
    expect(await slugs({ q: 'xebra' })).toEqual(['zebra']); // first letter substituted, 5 characters
    expect(await slugs({ q: 'zebr parcels' })).toEqual([]); // 4 characters, not last: exact only
    expect(await slugs({ q: 'xebro' })).toEqual([]); // two edits in 5 characters
    expect(await slugs({ q: 'hipopotamis' })).toEqual(['hippo']); // two edits in 11 characters
    expect(await slugs({ q: 'hxpopotamis' })).toEqual([]); // three edits
    expect(await slugs({ q: 'kiwo birds' })).toEqual([]); // 4 characters: exact only
    expect(await slugs({ q: 'kiwi birds' })).toEqual(['kiwi']);
    // Highlights mark the word that matched.
    const [hit] = (await search({ q: 'recieve' })).body.data as Hit[];
    expect(hit.highlight.title).toBe('How to <mark>receive</mark> parcels');
  });

  it('ranks a hit with the exact words above one that needed an edit; typos=false turns typos off', async () => {
    expect(await slugs({ q: 'bread' })).toEqual(['bread', 'breed']);
    expect(await slugs({ q: 'bread', typos: 'false' })).toEqual(['bread']);
    expect(await slugs({ q: 'recieve', typos: 'false' })).toEqual([]);
    expect(await slugs({ q: 'recieve', typos: 'true' })).toEqual(['receive']);
  });

  it('takes the last word as a prefix from 2 characters, and only the last', async () => {
    expect(await slugs({ q: 'zeb' })).toEqual(['zebra']);
    expect(await slugs({ q: 'black zeb' })).toEqual(['zebra']);
    expect(await slugs({ q: 'zeb black' })).toEqual([]);
    expect(await slugs({ q: 'hippopot' })).toEqual(['hippo']);
    expect(await slugs({ q: 'z' })).toEqual([]);
  });

  it('matches a "…" phrase in order and excludes -words', async () => {
    expect((await slugs({ q: 'red fox' })).sort()).toEqual(['fox-red', 'red-fox']);
    expect(await slugs({ q: '"red fox"' })).toEqual(['red-fox']);
    expect(await slugs({ q: '"fox red"' })).toEqual(['fox-red']);
    expect(await slugs({ q: 'fox -jumps' })).toEqual(['fox-red']);
    expect(await slugs({ q: 'red -sunset -fence' })).toEqual([]);
    // A hyphen inside a word is not an exclusion.
    expect((await slugs({ q: 'red-fox' })).sort()).toEqual(['fox-red', 'red-fox']);
  });

  it('searches pages by title, SEO description and content; with all each hit has its type', async () => {
    expect(await slugs({ q: 'lighthouse' })).toEqual(['lighthouse-post']);
    expect(await slugs({ q: 'lighthouse', type: 'pages' })).toEqual(['harbour']);
    expect(await slugs({ q: 'harbour year', type: 'pages' })).toEqual(['harbour']);
    expect(await slugs({ q: 'hippocampus', type: 'pages' })).toEqual([]); // a draft page
    const all = await search({ q: 'lighthouse', type: 'all' });
    expect(all.body.meta.pagination.total).toBe(2);
    expect((all.body.data as Hit[]).map((hit) => [hit.type, hit.slug]).sort()).toEqual([
      ['article', 'lighthouse-post'],
      ['page', 'harbour'],
    ]);
    const paged = await search({ q: 'lighthouse', type: 'all', pagination: { page: '2', pageSize: '1' } });
    expect(paged.body.data).toHaveLength(1);
    expect((await search({ q: 'lighthouse' })).body.data[0].type).toBeUndefined();
    // Pages have no category: a category keeps articles only.
    expect(await slugs({ q: 'nebula', type: 'pages', category: 'tech' })).toEqual([]);
  });

  it('counts facets over every hit, not just the page, most first', async () => {
    const res = await search({ q: 'nebula', facets: 'category,tag,locale', pagination: { pageSize: '1' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.meta.facets).toEqual({
      category: [
        { slug: 'tech', title: 'Tech', count: 2 },
        { slug: 'life', title: 'Life', count: 1 },
      ],
      tag: [
        { slug: 'js', title: 'JS', count: 2 },
        { slug: 'go', title: 'Go', count: 1 },
      ],
      locale: [{ code: 'en', count: 3 }],
    });
    const one = await search({ q: 'nebula', facets: 'tag', tag: 'go' });
    expect(one.body.meta.facets).toEqual({ tag: [{ slug: 'go', title: 'Go', count: 1 }, { slug: 'js', title: 'JS', count: 1 }] });
    expect((await search({ q: 'nebula' })).body.meta.facets).toBeUndefined();
  });

  it('suggests a corrected query when nothing is found and it would find something', async () => {
    const typed = await search({ q: 'recieve parcels', typos: 'false' });
    expect([typed.body.data, typed.body.meta.suggestion]).toEqual([[], 'receive parcels']);
    const short = await search({ q: 'kiwo birds' });
    expect(short.body.meta.suggestion).toBe('kiwi birds');
    expect((await search({ q: 'qqqqqqq' })).body.meta.suggestion).toBeUndefined();
    expect((await search({ q: 'recieve' })).body.meta.suggestion).toBeUndefined();
  });

  it('refuses a bad type, typos or facets with 400 naming the field', async () => {
    for (const [query, field] of [
      [{ q: 'x', type: 'posts' }, 'type'],
      [{ q: 'x', typos: 'maybe' }, 'typos'],
      [{ q: 'x', facets: 'category,author' }, 'facets'],
    ] as const) {
      const res = await search(query);
      expect([field, res.status, res.body.error?.name]).toEqual([field, 400, 'ValidationError']);
      expect(res.body.error.details.errors[0].path).toEqual([field]);
    }
  });

  it('suggests published titles whose words start with the typed words, at most 10, 2–100 characters', async () => {
    const titles = async (q: string) => {
      const res = await suggest({ q });
      expect([q, res.status]).toEqual([q, 200]);
      return (res.body.data as { type: string; slug: string; title: string }[]).map((row) => `${row.type}:${row.slug}`);
    };
    expect((await titles('hip')).sort()).toEqual(['article:hippo', 'page:hippodrome']);
    expect((await titles('fox re')).sort()).toEqual(['article:fox-red', 'article:red-fox']);
    expect(await titles('hippocam')).toEqual([]); // a draft page
    for (let i = 0; i < 11; i += 1) await article({ slug: `quince-${i}`, title: `Quince ${i}`, content: 'x' });
    expect(await titles('quin')).toHaveLength(10);
    for (const [q, status] of [['h', 400], [' h ', 400], ['x'.repeat(101), 400], ['', 400]] as const) {
      const res = await suggest({ q });
      expect([q, res.status, res.body.error?.details?.errors?.[0]?.path]).toEqual([q, status, ['q']]);
    }
    expect((await suggest({})).status).toBe(400);
    expect((await suggest({ q: 'x'.repeat(100) })).status).toBe(200);
    // Cached answers follow writes: a title published after a first answer shows in the next.
    expect(await titles('kestr')).toEqual([]);
    await article({ slug: 'kestrel', title: 'Kestrel hovering', content: 'x' });
    expect(await titles('kestr')).toEqual(['article:kestrel']);
  });

  it('follows publish, edit, unpublish and delete at once, typo queries and pages included', async () => {
    const doc = await article({ slug: 'platypus', title: 'Platypus', content: 'Odd.' });
    expect(await slugs({ q: 'platipus' })).toEqual(['platypus']);
    await documents(ARTICLE).update({ documentId: doc.documentId, locale: 'en', data: { title: 'Echidna' } });
    await documents(ARTICLE).publish({ documentId: doc.documentId, locale: 'en' });
    expect(await slugs({ q: 'platipus' })).toEqual([]);
    expect(await slugs({ q: 'echidan' })).toEqual(['platypus']);
    await documents(ARTICLE).unpublish({ documentId: doc.documentId, locale: 'en' });
    expect(await slugs({ q: 'echidan' })).toEqual([]);
    await documents(ARTICLE).publish({ documentId: doc.documentId, locale: 'en' });
    expect(await slugs({ q: 'echidan' })).toEqual(['platypus']);
    await documents(ARTICLE).delete({ documentId: doc.documentId, locale: 'en' });
    expect(await slugs({ q: 'echidan' })).toEqual([]);
    const page = await create(PAGE, { slug: 'aquarium', title: 'Aquarium', content: 'Fish.' });
    expect(await slugs({ q: 'aquarim', type: 'pages' })).toEqual(['aquarium']);
    await documents(PAGE).unpublish({ documentId: page.documentId, locale: 'en' });
    expect(await slugs({ q: 'aquarim', type: 'pages' })).toEqual([]);
    if (!isPostgres()) {
      // SQLite's vocabulary is exact: an unpublished word is no longer a candidate.
      const rows = await app.strapi.db.connection.raw(`SELECT term FROM bag_search_pages_vocab WHERE term = 'aquarium'`);
      expect(rows).toEqual([]);
    }
  });
});
