/**
 * Benchmark data, bulk-inserted into a fresh playground database: boots the app (with the comparator API, so its
 * actions exist), writes rows and link-table rows with knex in batches, checks the result through the Document
 * Service, writes the fixtures the driver needs (slugs, ids, credentials) as JSON, and exits.
 *
 * Rows are laid out as the Document Service lays them out (checked against documents().create/publish): a published
 * draft-and-publish document is two rows (draft with published_at null, published copy) sharing document_id, both
 * linked to the same non-D&P targets; a non-D&P row carries published_at; a comment links to both rows of its
 * article. The seven localized types' rows carry the default locale `en` (comments, not localized, none); an `fr`
 * locale exists and a quarter of the published articles have an `fr` version (same document, own rows and slug).
 * SQLite: dates as epoch milliseconds and booleans 0/1, as better-sqlite3 stores them; PostgreSQL
 * (DATABASE_CLIENT=postgres): dates and booleans, and each table's id sequence moved past the ids written here.
 *
 * Usage (from bench/run.mjs): BENCH_SCALE=full|quick BENCH_FIXTURES=<file> node bench/seed.mjs
 */
import fs from 'fs';
import { loadApp } from './lib/app.mjs';
import { bulkWriter, documentId } from './lib/bulk-seed.mjs';

const SCALES = {
  full: {
    articles: 1000,
    drafts: 100,
    approved: 10000,
    pending: 5000,
    menuLevels: [5, 20, 75, 225, 675],
    pages: 50,
    banners: 100,
  },
  quick: {
    articles: 100,
    drafts: 10,
    approved: 500,
    pending: 250,
    menuLevels: [2, 4, 10, 24, 60],
    pages: 10,
    banners: 20,
  },
};
const scale = SCALES[process.env.BENCH_SCALE ?? 'full'];
const POSTGRES = process.env.DATABASE_CLIENT === 'postgres';
/** A date (epoch ms) and a boolean as the database's driver takes them. */
const ts = (ms) => (POSTGRES ? new Date(ms) : ms);
const bool = (value) => (POSTGRES ? Boolean(value) : value ? 1 : 0);
/** Every `FR_EVERY`-th published article (the first included) also has a French version. */
const FR_EVERY = 4;
const P = 'plugin::cms-plugin-bag';
const GROUPS = ['home', 'blog', 'about', 'shop', 'news'];
const MAX_THREAD_DEPTH = 20;
const PASSWORD = 'Bench-password-1';

/** Deterministic data: the same seed gives the same trees on every run. */
let state = 42;
const random = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const paragraph =
  'Strapi is a headless CMS; this paragraph pads a benchmark document to about two kilobytes so that the rows ' +
  'read, populated and serialised have the size of a real blog post rather than a few bytes of placeholder text. ';
const body = (title) => `# ${title}\n\n${paragraph.repeat(8)}`;

const strapi = await loadApp({ withHostApi: true });
const knex = strapi.db.connection;
const locales = strapi.plugin('i18n').service('locales');
const defaultLocale = await locales.getDefaultLocale();
if (!(await locales.findByCode('fr'))) await locales.create({ code: 'fr', name: 'French (fr)' });
const now = Date.now();
const table = (type) => strapi.db.metadata.get(`${P}.${type}`).tableName;

/** Batched inserts and link-table rows (bench/lib/bulk-seed.mjs, shared with the scale and discovery seeds). */
const { insert, link } = bulkWriter(strapi);

let nextId = 1;
/** `publishedAt` in epoch ms or null; `locale`: the default for the localized types, null for comments. */
const rowBase = (publishedAt, locale = defaultLocale) => ({
  id: nextId++,
  created_at: ts(now),
  updated_at: ts(now),
  published_at: publishedAt === null ? null : ts(publishedAt),
  locale,
});

/** A draft-and-publish document: its draft row and, when published, its published row. */
const dpDocument = (fields, published, { document_id = documentId(), locale = defaultLocale } = {}) => {
  const draft = { ...rowBase(null, locale), document_id, ...fields };
  return published ? [draft, { ...rowBase(now, locale), document_id, ...fields }] : [draft];
};

const started = Date.now();

// Users: through the users-permissions service so passwords are hashed as at registration.
const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
const authors = [];
for (let i = 0; i < 5; i += 1) {
  authors.push(
    await strapi
      .plugin('users-permissions')
      .service('user')
      .add({
        username: `bench-author-${i}`,
        email: `bench-author-${i}@example.com`,
        password: PASSWORD,
        provider: 'local',
        confirmed: true,
        blocked: false,
        role: role.id,
      }),
  );
}

// Categories (5 roots with 3 children each) and tags.
nextId = 1;
const categories = Array.from({ length: 20 }, (_, i) => ({
  ...rowBase(now),
  document_id: documentId(),
  title: `Category ${i}`,
  slug: `category-${i}`,
  description: `Articles of category ${i}`,
}));
await insert(table('category'), categories);
await link(
  'category',
  'parent',
  categories.slice(5).map((c, i) => [c.id, categories[i % 5].id]),
);
nextId = 1;
const tags = Array.from({ length: 50 }, (_, i) => ({
  ...rowBase(now),
  document_id: documentId(),
  title: `Tag ${i}`,
  slug: `tag-${i}`,
}));
await insert(table('tag'), tags);

// Articles: `articles` published documents (the first 20 pinned) and `drafts` never-published ones.
nextId = 1;
const articleDocs = [];
for (let i = 0; i < scale.articles + scale.drafts; i += 1) {
  const published = i < scale.articles;
  const title = `Bench article ${i}`;
  const rows = dpDocument(
    {
      title,
      slug: `bench-article-${i}`,
      summary: `Summary of ${title}.`,
      content: body(title),
      is_top: bool(i < 20),
      views: 0,
    },
    published,
  );
  if (published) rows[1].published_at = ts(now - i * 60_000);
  articleDocs.push({
    rows,
    category: pick(categories).id,
    tags: [0, 1, 2].map((k) => tags[(i * 3 + k) % tags.length].id),
    author: pick(authors).id,
  });
}
// French versions of every FR_EVERY-th published article: the same document (and shared isTop), their own rows,
// title and slug, linked to the same category, tags and author rows.
const frenchDocs = articleDocs
  .slice(0, scale.articles)
  .filter((_, i) => i % FR_EVERY === 0)
  .map((doc, k) => {
    const i = k * FR_EVERY;
    const title = `Article de banc ${i}`;
    const rows = dpDocument(
      {
        title,
        slug: `fr-bench-article-${i}`,
        summary: `Résumé de ${title}.`,
        content: body(title),
        is_top: doc.rows[0].is_top,
        views: 0,
      },
      true,
      { document_id: doc.rows[0].document_id, locale: 'fr' },
    );
    rows[1].published_at = doc.rows[1].published_at;
    return { ...doc, rows };
  });
articleDocs.push(...frenchDocs);
await insert(
  table('article'),
  articleDocs.flatMap((doc) => doc.rows),
);
const articleRows = articleDocs.flatMap((doc) => doc.rows.map((row) => ({ row, doc })));
await link(
  'article',
  'category',
  articleRows.map(({ row, doc }) => [row.id, doc.category]),
);
await link(
  'article',
  'tags',
  articleRows.flatMap(({ row, doc }) => doc.tags.map((tag) => [row.id, tag])),
);
await link(
  'article',
  'author',
  articleRows.map(({ row, doc }) => [row.id, doc.author]),
);

// Comments on one article: approved threads (every other thread a chain MAX_THREAD_DEPTH deep, the others bushy),
// then pending ones, replies or roots, which no listing may show.
const commented = articleDocs[0];
nextId = 1;
const comments = [];
const threadSize = MAX_THREAD_DEPTH;
for (let i = 0; i < scale.approved; i += 1) {
  const thread = Math.floor(i / threadSize);
  const k = i % threadSize;
  const parent = k === 0 ? null : thread % 2 === 0 ? comments[i - 1] : comments[i - k + Math.floor(random() * k)];
  comments.push({
    ...rowBase(now, null),
    document_id: documentId(),
    content: `Approved comment ${i}`,
    // What the plugin renders from that Markdown when a comment is written (a plain-text paragraph); without it
    // the first server would render every seeded comment in the background while it is measured.
    content_html: `<p>Approved comment ${i}</p>\n`,
    status: 'approved',
    is_admin: bool(false),
    // Spread likes (ties included) for the `top` sort, without touching the thread shapes' random sequence.
    likes: (i * 7919) % 53,
    created_at: ts(now - (scale.approved - i) * 1000),
    parent,
  });
}
for (let i = 0; i < scale.pending; i += 1) {
  const parent = i % 2 === 0 ? null : comments[Math.floor(random() * scale.approved)];
  comments.push({
    ...rowBase(now, null),
    document_id: documentId(),
    content: `Pending comment ${i}`,
    content_html: `<p>Pending comment ${i}</p>\n`,
    status: 'pending',
    is_admin: bool(false),
    likes: 0,
    parent,
  });
}
await insert(
  table('comment'),
  comments.map(({ parent, ...row }) => row),
);
await link(
  'comment',
  'article',
  comments.flatMap((c) => commented.rows.map((row) => [c.id, row.id])),
);
await link(
  'comment',
  'author',
  comments.map((c) => [c.id, pick(authors).id]),
);
await link(
  'comment',
  'parent',
  comments.filter((c) => c.parent).map((c) => [c.id, c.parent.id]),
);

// One menu, its items in levels (each item's parent spread evenly over the level above).
nextId = 1;
const menu = {
  ...rowBase(now),
  document_id: documentId(),
  title: 'Bench menu',
  slug: 'bench-menu',
};
await insert(table('menu'), [menu]);
nextId = 1;
const items = [];
let previousLevel = [];
for (const [depth, count] of scale.menuLevels.entries()) {
  const level = [];
  for (let i = 0; i < count; i += 1) {
    const parent = depth === 0 ? null : previousLevel[Math.floor((i * previousLevel.length) / count)];
    level.push({
      ...rowBase(now),
      document_id: documentId(),
      title: `Item ${depth}.${i}`,
      url: `/level-${depth}/item-${i}`,
      target: i % 7 === 0 ? '_blank' : '_self',
      icon: null,
      is_hot: bool(i % 11 === 0),
      order: count - i,
      parent,
    });
  }
  items.push(...level);
  previousLevel = level;
}
await insert(
  table('menu-item'),
  items.map(({ parent, ...row }) => row),
);
await link(
  'menu-item',
  'menu',
  items.map((item) => [item.id, menu.id]),
);
await link(
  'menu-item',
  'parent',
  items.filter((item) => item.parent).map((item) => [item.id, item.parent.id]),
);

// Pages and banners, all published; every tenth banner hidden.
nextId = 1;
const pages = Array.from({ length: scale.pages }, (_, i) =>
  dpDocument(
    {
      title: `Bench page ${i}`,
      slug: `bench-page-${i}`,
      content: body(`Bench page ${i}`),
      seo_title: `Bench page ${i} — SEO title`,
      seo_keywords: 'bench, strapi, plugin',
      seo_description: `Description of bench page ${i}.`,
      views: 0,
    },
    true,
  ),
);
await insert(table('page'), pages.flat());
nextId = 1;
const banners = Array.from({ length: scale.banners }, (_, i) =>
  dpDocument(
    {
      title: `Banner ${i}`,
      subtitle: `Subtitle ${i}`,
      link: `/banner-${i}`,
      order: i % 7,
      group: GROUPS[i % GROUPS.length],
      is_visible: bool(i % 10 !== 9),
    },
    true,
  ),
);
await insert(table('banner'), banners.flat());

// The comparator is read with a full-access API token: the host's validator and sanitizer only let a filter or a
// populate through a relation when the caller may `find` the target type, and the plugin's types have no such
// content-API action to grant to Public. AES encrypt (granted to nobody by default) is granted to Public here so
// that it can be measured.
const hostToken = await strapi.service('admin::api-token').create({
  name: 'bench comparator',
  description: 'reads the host REST API in the benchmark',
  kind: 'content-api',
  type: 'full-access',
  lifespan: null,
});
const publicRole = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
await strapi.db
  .query('plugin::users-permissions.permission')
  .create({ data: { action: `${P}.crypto.aesEncrypt`, role: publicRole.id } });

// Check through the Document Service what a reader will see.
const docs = (type) => strapi.documents(`${P}.${type}`);
const sample = await docs('article').findOne({
  documentId: commented.rows[0].document_id,
  status: 'published',
  populate: { category: true, tags: true, author: true },
});
const check = {
  publishedArticles: await docs('article').count({ status: 'published' }),
  draftOnlyArticles:
    (await docs('article').count({ status: 'draft' })) - (await docs('article').count({ status: 'published' })),
  sampleArticleTags: sample?.tags?.length ?? 0,
  sampleArticleHasCategoryAndAuthor: Boolean(sample?.category && sample?.author),
  approvedComments: await docs('comment').count({
    filters: {
      status: 'approved',
      article: { documentId: commented.rows[0].document_id },
    },
  }),
  pendingComments: await docs('comment').count({
    filters: { status: 'pending' },
  }),
  menuItems: await docs('menu-item').count({
    filters: { menu: { slug: menu.slug } },
  }),
  publishedPages: await docs('page').count({ status: 'published' }),
  publishedBanners: await docs('banner').count({ status: 'published' }),
  frenchArticles: await docs('article').count({ status: 'published', locale: 'fr' }),
};
const expected = {
  publishedArticles: scale.articles,
  draftOnlyArticles: scale.drafts,
  sampleArticleTags: 3,
  sampleArticleHasCategoryAndAuthor: true,
  approvedComments: scale.approved,
  pendingComments: scale.pending,
  menuItems: scale.menuLevels.reduce((a, b) => a + b, 0),
  publishedPages: scale.pages,
  publishedBanners: scale.banners,
  frenchArticles: frenchDocs.length,
};
const wrong = Object.keys(expected).filter((key) => check[key] !== expected[key]);

// The approved root with the most direct approved replies: the replies page of the benchmark.
const directReplies = new Map();
for (const c of comments)
  if (c.parent && c.status === 'approved') directReplies.set(c.parent, (directReplies.get(c.parent) ?? 0) + 1);
const busiestRoot = comments
  .filter((c) => c.status === 'approved' && !c.parent)
  .reduce((best, c) => ((directReplies.get(c) ?? 0) > (directReplies.get(best) ?? 0) ? c : best));

const fixtures = {
  scale: process.env.BENCH_SCALE ?? 'full',
  seedMs: Date.now() - started,
  counts: check,
  article: {
    slug: commented.rows[1].slug,
    documentId: commented.rows[0].document_id,
    // The same document's French version (article 0 is among those translated).
    frenchSlug: frenchDocs[0].rows[1].slug,
  },
  defaultLocale,
  thread: {
    approvedRoots: comments.filter((c) => c.status === 'approved' && !c.parent).length,
    root: { documentId: busiestRoot.document_id, replies: directReplies.get(busiestRoot) ?? 0 },
  },
  page: { slug: pages[0][1].slug, documentId: pages[0][0].document_id },
  menu: { slug: menu.slug },
  bannerGroup: 'home',
  user: { identifier: authors[0].email, password: PASSWORD },
  hostToken: hostToken.accessKey,
};
fs.writeFileSync(process.env.BENCH_FIXTURES, JSON.stringify(fixtures, null, 2));
await strapi.destroy();

if (wrong.length > 0) {
  console.error(
    `seeded data does not read back as expected: ${wrong.map((k) => `${k}=${check[k]} (want ${expected[k]})`).join(', ')}`,
  );
  process.exit(1);
}
process.exit(0);
