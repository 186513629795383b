#!/usr/bin/env node
/**
 * Import benchmark (docs/import.md#measured): writes a WordPress export (WXR 1.2) of about `--mb` megabytes (default
 * 200) with posts, pages, categories with parents, tags, authors, threaded comments and menus; boots the playground on
 * a fresh database; imports the file through the `imports` service's `start` (what `npx cms-plugin-bag import` and the
 * admin route run), then, in the same process, has the Document Service create as many articles, pages and comments
 * directly (the floor: the same writes with none of the import's reading, mapping and bookkeeping). Reports
 *   - records per second (articles + pages + comments written) of the import and of the floor, and their ratio
 *     (target >= 0.5),
 *   - the RSS growth during the import over the resting process after boot (target <= 100 MB; sampled every 100 ms),
 *   - the counts the import reported.
 *
 * Usage: npm run build && npm run build -w playground, then
 *   node scripts/import-bench.mjs [--mb=200] [--db=sqlite|postgres] [--keep=<file.xml>] [--floor=false] [--sql]
 * `--db=postgres` needs `eval "$(scripts/postgres.sh env)"` (a new database is created and dropped). `--keep`: write
 * the export there and leave it (else a temporary file, removed). Env BENCH_JSON: a file to write the figures to.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { performance } from 'perf_hooks';
import { benchEnv, loadApp } from '../bench/lib/app.mjs';
import { createDatabase, dropDatabase } from './lib/postgres-admin.js';

const arg = (name, fallback) => process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const MB = Number(arg('mb', '200'));
const DB = arg('db', 'sqlite');
const KEEP = arg('keep', '');
const FLOOR = arg('floor', 'true') !== 'false';
const postgres = DB === 'postgres';
const P = 'plugin::cms-plugin-bag';
const log = (...args) => console.log(`[import-bench ${DB}]`, ...args);

// ---------------------------------------------------------------------------------------------------------------
// The export: deterministic, about MB megabytes.

let seed = 11;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur'.split(' ');
const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const cdata = (text) => `<![CDATA[${text}]]>`;
const BASE = 'https://bench.example.com';
const CATEGORIES = 40;
const TAGS = 300;
const AUTHORS = 5;
const date = (i) => new Date(Date.UTC(2010, 0, 1) + i * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

const header = () => {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n',
    `<title>Bench</title>\n<link>${BASE}</link>\n<wp:wxr_version>1.2</wp:wxr_version>\n<wp:base_site_url>${BASE}</wp:base_site_url>\n<wp:base_blog_url>${BASE}</wp:base_blog_url>\n`,
  ];
  for (let a = 1; a <= AUTHORS; a += 1) {
    parts.push(`<wp:author><wp:author_id>${a}</wp:author_id><wp:author_login>${cdata(`author${a}`)}</wp:author_login><wp:author_email>${cdata(`author${a}@bench.example.com`)}</wp:author_email><wp:author_display_name>${cdata(`Author ${a}`)}</wp:author_display_name></wp:author>\n`);
  }
  for (let c = 1; c <= CATEGORIES; c += 1) {
    const parent = c > 8 ? `category-${1 + (c % 8)}` : '';
    parts.push(`<wp:category><wp:term_id>${c}</wp:term_id><wp:category_nicename>${cdata(`category-${c}`)}</wp:category_nicename><wp:category_parent>${cdata(parent)}</wp:category_parent><wp:cat_name>${cdata(`Category ${c}`)}</wp:cat_name></wp:category>\n`);
  }
  for (let t = 1; t <= TAGS; t += 1) {
    parts.push(`<wp:tag><wp:term_id>${1000 + t}</wp:term_id><wp:tag_slug>${cdata(`tag-${t}`)}</wp:tag_slug><wp:tag_name>${cdata(`Tag ${t}`)}</wp:tag_name></wp:tag>\n`);
  }
  for (const menu of ['main', 'footer']) {
    parts.push(`<wp:term><wp:term_id>${menu === 'main' ? 5001 : 5002}</wp:term_id><wp:term_taxonomy>${cdata('nav_menu')}</wp:term_taxonomy><wp:term_slug>${cdata(menu)}</wp:term_slug><wp:term_name>${cdata(menu)}</wp:term_name></wp:term>\n`);
  }
  return parts.join('');
};

const paragraph = () => `<p>${words(60)} <a href="${BASE}/${pick(WORDS)}/">${pick(WORDS)}</a> <strong>${words(3)}</strong> ${words(40)}.</p>\n`;

const comment = (id, parent, postId) => {
  const guest = random() < 0.7;
  const author = guest ? `Guest ${id}` : `author${1 + (id % AUTHORS)}`;
  const email = guest ? `guest${id}@mail.example.net` : `author${1 + (id % AUTHORS)}@bench.example.com`;
  return `<wp:comment><wp:comment_id>${id}</wp:comment_id><wp:comment_author>${cdata(author)}</wp:comment_author><wp:comment_author_email>${cdata(email)}</wp:comment_author_email><wp:comment_author_IP>${cdata(`203.0.113.${id % 250}`)}</wp:comment_author_IP><wp:comment_date>${date(postId + id)}</wp:comment_date><wp:comment_date_gmt>${date(postId + id)}</wp:comment_date_gmt><wp:comment_content>${cdata(`<p>${words(25 + Math.floor(random() * 40))}</p>`)}</wp:comment_content><wp:comment_approved>${cdata(random() < 0.9 ? '1' : '0')}</wp:comment_approved><wp:comment_type>${cdata('comment')}</wp:comment_type><wp:comment_parent>${parent}</wp:comment_parent><wp:comment_user_id>0</wp:comment_user_id></wp:comment>\n`;
};

const item = (postId, type, n, state) => {
  const slug = `${type}-${n}-${pick(WORDS)}`;
  const parts = [
    `<item><title>${cdata(`${type === 'post' ? 'Post' : 'Page'} ${n}: ${words(5)}`)}</title><link>${BASE}/${type === 'post' ? '2015/01/' : ''}${slug}/</link><pubDate>Mon, 01 Jan 2015 00:00:00 +0000</pubDate><dc:creator>${cdata(`author${1 + (n % AUTHORS)}`)}</dc:creator>`,
    `<guid isPermaLink="false">${BASE}/?p=${postId}</guid><description></description><content:encoded>${cdata(Array.from({ length: 6 + Math.floor(random() * 8) }, paragraph).join(''))}</content:encoded><excerpt:encoded>${cdata(words(30))}</excerpt:encoded>`,
    `<wp:post_id>${postId}</wp:post_id><wp:post_date>${date(postId)}</wp:post_date><wp:post_date_gmt>${date(postId)}</wp:post_date_gmt><wp:post_name>${cdata(slug)}</wp:post_name><wp:status>${cdata(n % 10 === 0 ? 'draft' : 'publish')}</wp:status><wp:post_parent>0</wp:post_parent><wp:menu_order>0</wp:menu_order><wp:post_type>${cdata(type)}</wp:post_type><wp:post_password></wp:post_password>`,
  ];
  if (type === 'post') {
    parts.push(`<category domain="category" nicename="category-${1 + (n % CATEGORIES)}">${cdata(`Category ${1 + (n % CATEGORIES)}`)}</category>`);
    for (let t = 0; t < 3; t += 1) {
      const tag = 1 + Math.floor(random() * TAGS);
      parts.push(`<category domain="post_tag" nicename="tag-${tag}">${cdata(`Tag ${tag}`)}</category>`);
    }
    // Threaded comments: 0 to 8, a third of them replies to an earlier one.
    const count = Math.floor(random() * 9);
    for (let c = 0; c < count; c += 1) {
      state.comment += 1;
      const parent = c > 0 && random() < 0.35 ? state.comment - 1 - Math.floor(random() * c) : 0;
      parts.push(comment(state.comment, parent, postId));
    }
  } else {
    parts.push(`<wp:postmeta><wp:meta_key>_yoast_wpseo_title</wp:meta_key><wp:meta_value>${cdata(words(6))}</wp:meta_value></wp:postmeta>`);
  }
  parts.push('</item>\n');
  return parts.join('');
};

const menuItem = (postId, menu, order, parent, target) =>
  `<item><title>${cdata('')}</title><link>${BASE}/?p=${postId}</link><wp:post_id>${postId}</wp:post_id><wp:status>publish</wp:status><wp:menu_order>${order}</wp:menu_order><wp:post_type>nav_menu_item</wp:post_type><category domain="nav_menu" nicename="${menu}">${cdata(menu)}</category>` +
  `<wp:postmeta><wp:meta_key>_menu_item_type</wp:meta_key><wp:meta_value>${cdata('post_type')}</wp:meta_value></wp:postmeta><wp:postmeta><wp:meta_key>_menu_item_menu_item_parent</wp:meta_key><wp:meta_value>${cdata(String(parent))}</wp:meta_value></wp:postmeta>` +
  `<wp:postmeta><wp:meta_key>_menu_item_object_id</wp:meta_key><wp:meta_value>${cdata(String(target))}</wp:meta_value></wp:postmeta><wp:postmeta><wp:meta_key>_menu_item_object</wp:meta_key><wp:meta_value>${cdata('page')}</wp:meta_value></wp:postmeta></item>\n`;

/** Writes the export to `file`; returns what it holds. */
const writeExport = async (file, megabytes) => {
  const out = fs.createWriteStream(file);
  const write = (text) => (out.write(text) ? undefined : new Promise((resolve) => out.once('drain', resolve)));
  let bytes = 0;
  const put = async (text) => {
    bytes += Buffer.byteLength(text);
    await write(text);
  };
  const state = { comment: 0 };
  const held = { posts: 0, pages: 0, menuItems: 0 };
  await put(header());
  const limit = megabytes * 1024 * 1024 - 4096;
  let postId = 100;
  const pageIds = [];
  for (let n = 1; bytes < limit; n += 1) {
    postId += 1;
    const type = n % 20 === 0 ? 'page' : 'post';
    if (type === 'page') {
      held.pages += 1;
      pageIds.push(postId);
    } else held.posts += 1;
    await put(item(postId, type, n, state));
  }
  // Menus: the first 20 pages in `main` (every fourth a child of the one before), 10 in `footer`.
  for (const [menu, count] of [['main', 20], ['footer', 10]]) {
    let previous = 0;
    for (let i = 0; i < Math.min(count, pageIds.length); i += 1) {
      postId += 1;
      held.menuItems += 1;
      await put(menuItem(postId, menu, i + 1, i % 4 === 3 ? previous : 0, pageIds[i]));
      previous = postId;
    }
  }
  await put('</channel>\n</rss>\n');
  await new Promise((resolve) => out.end(resolve));
  return { ...held, comments: state.comment, bytes };
};

// ---------------------------------------------------------------------------------------------------------------

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-bench-'));
const file = KEEP ? path.resolve(KEEP) : path.join(dir, 'export.xml');
let written = performance.now();
const held = await writeExport(file, MB);
written = performance.now() - written;
log(`export: ${(held.bytes / 1048576).toFixed(1)} MB, ${held.posts} posts, ${held.pages} pages, ${held.comments} comments, ${held.menuItems} menu items (written in ${(written / 1000).toFixed(1)} s)`);

Object.assign(process.env, benchEnv(), { PORT: String(20000 + Math.floor(Math.random() * 20000)) });
if (postgres) {
  process.env.DATABASE_CLIENT = 'postgres';
  process.env.DATABASE_NAME = `import_bench_${Date.now()}`;
  await createDatabase(process.env.DATABASE_NAME);
} else {
  process.env.DATABASE_CLIENT = 'sqlite';
  process.env.DATABASE_FILENAME = path.join(dir, 'data.db');
}

const strapi = await loadApp({ withHostApi: false });
// The authors of the export are users, so `author` is set as on a real site.
for (let a = 1; a <= AUTHORS; a += 1) {
  await strapi.db.query('plugin::users-permissions.user').create({ data: { username: `author${a}`, email: `author${a}@bench.example.com`, provider: 'local', confirmed: true } });
}

const gc = () => globalThis.gc?.();
gc();
await new Promise((resolve) => setTimeout(resolve, 1000));
gc();
const resting = process.memoryUsage().rss;
log(`resting after boot and a GC: RSS ${(resting / 1048576).toFixed(0)} MB, heap used ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MB`);
let peak = resting;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 100);

// `--sql`: the import's statements by shape (literals and placeholders folded), the slowest in total first.
const statements = new Map();
if (process.argv.includes('--sql')) {
  const started = new Map();
  const knex = strapi.db.connection;
  knex.on('query', (q) => started.set(q.__knexQueryUid, performance.now()));
  knex.on('query-response', (_r, q) => {
    const shape = q.sql.replace(/\?(, \?)*/g, '?').replace(/\$\d+(, \$\d+)*/g, '?').replace(/'[^']*'/g, "'…'").slice(0, 220);
    const entry = statements.get(shape) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += performance.now() - (started.get(q.__knexQueryUid) ?? performance.now());
    started.delete(q.__knexQueryUid);
    statements.set(shape, entry);
  });
}
const imports = strapi.plugin('cms-plugin-bag').service('imports');
let imported = performance.now();
let shown = 0;
const { done } = await imports.start(file, {
  source: 'wordpress',
  onProgress: (processed, total) => {
    if (processed === total || processed >= shown + total / 10) {
      shown = processed;
      log(`${processed}/${total} items, ${((performance.now() - imported) / 1000).toFixed(0)} s`);
    }
  },
});
const report = await done;
imported = performance.now() - imported;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
if (report.status !== 'done') throw new Error(`import failed: ${report.error}`);
gc();
const retained = process.memoryUsage();
log(`after the import and a GC: RSS ${(retained.rss / 1048576).toFixed(0)} MB, heap used ${(retained.heapUsed / 1048576).toFixed(0)} MB`);
const records = report.counts.articles + report.counts.pages + report.counts.comments;
const importRate = records / (imported / 1000);
log(`import: ${(imported / 1000).toFixed(1)} s, ${records} records (articles+pages+comments), ${importRate.toFixed(1)}/s; counts ${JSON.stringify(report.counts)}`);
log(`RSS: resting ${(resting / 1048576).toFixed(0)} MB, peak ${(peak / 1048576).toFixed(0)} MB, growth ${((peak - resting) / 1048576).toFixed(0)} MB (target <= 100)`);

if (statements.size > 0) {
  const all = [...statements.values()].reduce((sum, e) => ({ count: sum.count + e.count, ms: sum.ms + e.ms }), { count: 0, ms: 0 });
  log(`SQL: ${all.count} statements, ${(all.ms / 1000).toFixed(1)} s; per record ${(all.count / records).toFixed(1)}`);
  for (const [shape, e] of [...statements].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) console.log(`  ${e.count}\t${e.ms.toFixed(0)} ms\t${shape}`);
  statements.clear();
  strapi.db.connection.removeAllListeners('query-response');
}

// The floor: the Document Service writing the same records with no import around them (slugs of their own). Each
// article gets the category, tags and author an imported one does; comments go to the floor's own articles.
if (!FLOOR) {
  await strapi.destroy();
  if (postgres) await dropDatabase(process.env.DATABASE_NAME);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const category = await strapi.db.query(`${P}.category`).findOne({ select: ['documentId'] });
const tags = (await strapi.db.query(`${P}.tag`).findMany({ select: ['documentId'], limit: 3 })).map((t) => t.documentId);
const author = await strapi.db.query('plugin::users-permissions.user').findOne({ select: ['id'] });
const sample = await strapi.db.query(`${P}.article`).findOne({ select: ['content', 'summary'], where: { publishedAt: { $notNull: true } } });
const comments = report.counts.comments;
let floor = performance.now();
const made = [];
for (let i = 0; i < report.counts.articles; i += 1) {
  const article = await strapi.documents(`${P}.article`).create({
    data: { title: `Floor ${i}`, slug: `floor-${i}`, content: sample.content, summary: sample.summary, category: category?.documentId, tags, author: author.id },
    status: 'published',
  });
  made.push(article.documentId);
}
for (let i = 0; i < report.counts.pages; i += 1) {
  await strapi.documents(`${P}.page`).create({ data: { title: `Floor page ${i}`, slug: `floor-page-${i}`, content: sample.content }, status: 'published' });
}
for (let i = 0; i < comments; i += 1) {
  await strapi.documents(`${P}.comment`).create({ data: { content: `Floor comment ${i} ${words(30)}`, status: 'approved', article: made[i % made.length], authorName: `Guest ${i}` } });
}
floor = performance.now() - floor;
const floorRate = records / (floor / 1000);
const ratio = importRate / floorRate;
log(`floor (Document Service, same records): ${(floor / 1000).toFixed(1)} s, ${floorRate.toFixed(1)}/s; import / floor = ${ratio.toFixed(2)} (target >= 0.5)`);

const summary = {
  db: DB,
  megabytes: Number((held.bytes / 1048576).toFixed(1)),
  export: held,
  importSeconds: Number((imported / 1000).toFixed(1)),
  records,
  importPerSecond: Number(importRate.toFixed(1)),
  floorSeconds: Number((floor / 1000).toFixed(1)),
  floorPerSecond: Number(floorRate.toFixed(1)),
  ratio: Number(ratio.toFixed(2)),
  rssRestingMb: Math.round(resting / 1048576),
  rssPeakMb: Math.round(peak / 1048576),
  rssGrowthMb: Math.round((peak - resting) / 1048576),
  rssAfterGcMb: Math.round(retained.rss / 1048576),
  heapAfterGcMb: Math.round(retained.heapUsed / 1048576),
  counts: report.counts,
  skipped: report.skipped.length,
};
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(summary, null, 2));

await strapi.destroy();
if (postgres) await dropDatabase(process.env.DATABASE_NAME);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
