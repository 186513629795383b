/**
 * The scale run's data (bench/lib/scale.mjs), a child of `npm run bench -- --scale`: boots the playground on a fresh
 * database, writes SCALE_ARTICLES published articles by SQL (bench/lib/bulk-seed.mjs: ~2 KB each, words from the
 * shared made-up vocabulary, published a minute apart) with the search triggers dropped, as a database written before
 * the index existed, then `SCALE_COMMENTS` approved comments on the middle article (a third of them replies to the
 * roots before them), times the search index build from empty (`search.ensureIndex()`, the start-up build), and
 * writes what the driver needs to BENCH_FIXTURES as JSON.
 */
import fs from 'fs';
import { performance } from 'perf_hooks';
import { loadApp } from './lib/app.mjs';
import { bulkWriter, documentId, insertArticles, searchableArticle, seededRandom, VOCABULARY, wordsOf } from './lib/bulk-seed.mjs';

const ARTICLES = Number(process.env.SCALE_ARTICLES);
const COMMENTS = Number(process.env.SCALE_COMMENTS ?? 300);
/** The searched word: one of the vocabulary, so it matches a steady share of the articles at every size. */
const SEARCHED = VOCABULARY[10];

const strapi = await loadApp({ withHostApi: false });
const writer = bulkWriter(strapi);
const { knex, postgres, ts, bool } = writer;
const articles = writer.table('article');
if (postgres) await knex.raw(`DROP TRIGGER IF EXISTS bag_search_sync ON ${articles}`);
else for (const name of ['bag_search_ai', 'bag_search_au', 'bag_search_ad']) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);

const words = wordsOf(seededRandom(11));
const now = Date.now();
const began = performance.now();
let reported = 0;
const seeded = await insertArticles(strapi, {
  count: ARTICLES,
  fields: searchableArticle(words),
  publishedAt: (n) => now - n * 60_000,
  batch: 5000,
  progress: (done) => {
    if (done - reported >= 100_000) {
      reported = done;
      console.log(`[scale-seed] ${done} articles in ${((performance.now() - began) / 1000).toFixed(0)} s`);
    }
  },
});
const articlesMs = performance.now() - began;

// One commenter, through the users-permissions service as at registration.
const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
const author = await strapi
  .plugin('users-permissions')
  .service('user')
  .add({ username: 'scale-author', email: 'scale-author@example.com', password: 'Scale-password-1', provider: 'local', confirmed: true, blocked: false, role: role.id });

// The comments of the middle article (its two rows: ids 2m+1 and 2m+2).
const middle = Math.floor(ARTICLES / 2);
const [draftId, publishedId] = [2 * middle + 1, 2 * middle + 2];
const article = await knex(articles).where({ id: publishedId }).first('document_id', 'slug');
const comments = [];
for (let i = 0; i < COMMENTS; i += 1) {
  const at = now - (COMMENTS - i) * 1000;
  const parent = i % 3 === 2 ? comments[i - 1 - (i % 2)] : null;
  comments.push({
    id: i + 1,
    document_id: documentId(),
    content: `Approved comment ${i}`,
    // What the plugin renders on write, so the server does not render them in the background while measured.
    content_html: `<p>Approved comment ${i}</p>\n`,
    status: 'approved',
    is_admin: bool(false),
    likes: i % 17,
    created_at: ts(at),
    updated_at: ts(at),
    published_at: ts(at),
    parent,
  });
}
await writer.insert(
  writer.table('comment'),
  comments.map(({ parent, ...row }) => row),
);
await writer.link('comment', 'article', comments.flatMap((c) => [draftId, publishedId].map((id) => [c.id, id])));
await writer.link('comment', 'author', comments.map((c) => [c.id, author.id]));
await writer.link('comment', 'parent', comments.filter((c) => c.parent).map((c) => [c.id, c.parent.id]));
const roots = comments.filter((c) => !c.parent).length;

// The index built from empty, as at the first start-up of a site that had these articles before the plugin.
const search = strapi.plugin('cms-plugin-bag').service('search');
let indexBuildMs = performance.now();
const { background } = await search.ensureIndex();
await background;
indexBuildMs = performance.now() - indexBuildMs;
console.log(
  `[scale-seed] ${ARTICLES} articles in ${(articlesMs / 1000).toFixed(1)} s, index built in ${(indexBuildMs / 1000).toFixed(1)} s`,
);

fs.writeFileSync(
  process.env.BENCH_FIXTURES,
  JSON.stringify({
    articles: ARTICLES,
    rows: seeded.rows,
    seedMs: articlesMs,
    indexBuildMs,
    article: { slug: article.slug, documentId: article.document_id },
    comments: COMMENTS,
    roots,
    searched: SEARCHED,
  }),
);
await strapi.destroy();
process.exit(0);
