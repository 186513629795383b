/**
 * `npm run bench -- --scale[=10000,100000,1000000]`: how the cost of the uncached reads grows with the number of
 * published articles. For each size: a fresh database seeded by SQL (bench/scale-seed.mjs), the search index built
 * from empty (timed), then a server with the response cache off (every request reaches the database) measured with
 * the bench's autocannon settings: the article list's first and last page, a detail, a search, the comment thread's
 * first page, sitemap page 1, and the whole sitemap (the index and every page, one after another, timed
 * `SCALE_SITEMAP_SAMPLES` times); RSS after boot and after the rows. Writes bench/results/scale.{json,md}
 * (PostgreSQL: scale-postgres.*) and the plot docs/images/scale.svg (scale-postgres.svg), and judges the targets:
 * pages and details flat, the whole sitemap linear, search sublinear in its match count.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import http from 'http';
import { ROOT } from './app.mjs';
import { CONNECTIONS, DB, DURATION, log, RESULTS, TMP } from './options.mjs';
import { ask, baseEnv, bootServer, database, exited, start, stopServer } from './server-process.mjs';
import { measure, probe } from './measure.mjs';
import { fmt } from './report.mjs';

const args = process.argv.slice(2);
const sizesArgument = args.find((arg) => arg.startsWith('--scale='))?.slice('--scale='.length);
export const SCALE_SIZES = (sizesArgument ?? '10000,100000,1000000')
  .split(',')
  .map((size) => Number(size.replace(/_/g, '')))
  .filter((size) => size > 0);
/** Whole-sitemap timings per size (3 from 500,000 articles): each the index and every page, one after another. */
const sitemapSamples = (articles) => (articles >= 500_000 ? 3 : 5);
/** Flat: the largest size's p50 at most this many times the smallest's. Linear: time per article within the same. */
export const FLAT_LIMIT = 2;
const NAME = `scale${DB === 'postgres' ? '-postgres' : ''}`;
const SVG = path.join(ROOT, 'docs', 'images', `${NAME}.svg`);

/** Rows measured under load at each size; `flat`: judged ≤ FLAT_LIMIT× from the smallest size to the largest. */
const rows = (fx, lastPage) => [
  { name: 'list, first page', path: '/api/bag/articles', flat: true },
  { name: 'list, last page', path: `/api/bag/articles?pagination[page]=${lastPage}`, flat: true },
  { name: 'detail', path: `/api/bag/articles/${fx.article.slug}`, flat: true },
  {
    name: 'search',
    path: `/api/bag/search?q=${fx.searched}`,
    check: (body) => (body.meta?.pagination?.total > 0 ? null : `no match for ${fx.searched}`),
  },
  {
    name: 'thread, first page',
    path: `/api/bag/articles/${fx.article.documentId}/comments?pagination[pageSize]=20`,
    flat: true,
    check: (body) => (body.data?.length === 20 ? null : `${body.data?.length} roots, want 20`),
  },
  { name: 'sitemap page 1', path: '/api/bag/sitemaps/1.xml' },
];

const get = (server, urlPath) =>
  new Promise((resolve, reject) => {
    const began = process.hrtime.bigint();
    http
      .get(server.url + urlPath, (res) => {
        let bytes = 0;
        let head = '';
        res.on('data', (chunk) => {
          bytes += chunk.length;
          if (head.length < 4000) head += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode, bytes, head, ms: Number(process.hrtime.bigint() - began) / 1e6 }));
        res.on('error', reject);
      })
      .on('error', reject);
  });

/** The whole sitemap: `/api/bag/sitemap.xml` and, when it is an index, every page it lists, one after another. */
async function wholeSitemap(server, articles) {
  const times = [];
  let bytes = 0;
  let pages = 0;
  for (let i = 0; i < sitemapSamples(articles); i += 1) {
    const began = process.hrtime.bigint();
    const index = await get(server, '/api/bag/sitemap.xml');
    if (index.status !== 200) return { failed: `sitemap.xml: HTTP ${index.status}` };
    const listed = [...index.head.matchAll(/\/api\/bag\/sitemaps\/(\d+)\.xml<\/loc>/g)].map((m) => m[1]);
    bytes = index.bytes;
    for (const n of listed) {
      const page = await get(server, `/api/bag/sitemaps/${n}.xml`);
      if (page.status !== 200) return { failed: `sitemaps/${n}.xml: HTTP ${page.status}` };
      bytes += page.bytes;
    }
    pages = listed.length;
    times.push(Number(process.hrtime.bigint() - began) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { samples: times.length, p50: times[Math.floor(times.length / 2)], p99: times.at(-1), bytes, pages, times };
}

async function measureSize(articles) {
  const db = database(`bench-scale-${articles}`);
  await db.reset();
  const fixtures = path.join(TMP, `bench-${NAME}-${articles}.json`);
  log(`scale ${articles.toLocaleString('en-US')}: seeding ${db.label}`);
  const seeder = start('scale-seed.mjs', { ...baseEnv, ...db.env, SCALE_ARTICLES: String(articles), BENCH_FIXTURES: fixtures });
  seeder.stdout.on('data', (chunk) => process.stdout.write(chunk));
  if ((await exited(seeder)) !== 0) throw new Error(`scale seeding failed:\n${seeder.output()}`);
  const fx = JSON.parse(fs.readFileSync(fixtures, 'utf8'));
  log(`scale ${articles}: seeded in ${fmt(fx.seedMs / 1000, 1)} s, index built in ${fmt(fx.indexBuildMs / 1000, 1)} s`);
  const databaseBytes = db.kind === 'sqlite' ? ['', '-wal'].reduce((sum, s) => sum + (fs.statSync(db.abs + s, { throwIfNoEntry: false })?.size ?? 0), 0) : null;

  const server = await bootServer({ db, config: { cache: { enabled: false } } });
  const result = {
    articles,
    seedMs: fx.seedMs,
    indexBuildMs: fx.indexBuildMs,
    databaseBytes,
    bootMs: server.bootMs,
    loadAverage: os.loadavg()[0],
    rows: [],
  };
  try {
    // Whatever the start-up does in the background (the index check) ends before anything is timed.
    await ask(server, { type: 'idle' });
    result.rssAfterBootBytes = (await ask(server, { type: 'memory', gc: true })).rssBytes;
    const first = await probe(server, { path: '/api/bag/articles' });
    const lastPage = first.body?.meta?.pagination?.pageCount ?? 1;
    result.pageSize = first.body?.meta?.pagination?.pageSize;
    for (const row of rows(fx, lastPage)) {
      const measured = await measure(server, row);
      const extra = {};
      if (row.name === 'search' && !measured.failed) extra.matches = (await probe(server, row)).body?.meta?.pagination?.total;
      if (row.name === 'sitemap page 1' && !measured.failed) extra.urls = Math.min(articles, 50_000);
      result.rows.push({ name: row.name, flat: Boolean(row.flat), ...measured, ...extra });
      log(`scale ${articles}: ${row.name}: ${measured.failed ?? `p50 ${fmt(measured.p50)} ms, p99 ${fmt(measured.p99)} ms, ${fmt(measured.rps)} req/s`}`);
    }
    const sitemap = await wholeSitemap(server, articles);
    result.rows.push({ name: 'whole sitemap', path: '/api/bag/sitemap.xml + every page', oneAtATime: true, ...sitemap });
    log(`scale ${articles}: whole sitemap: ${sitemap.failed ?? `p50 ${fmt(sitemap.p50)} ms (${sitemap.pages} pages, ${fmt(sitemap.bytes / 1e6, 1)} MB)`}`);
    result.rssAfterRowsBytes = (await ask(server, { type: 'memory', gc: true })).rssBytes;
  } finally {
    await stopServer(server);
    await db.drop();
    fs.rmSync(fixtures, { force: true });
  }
  return result;
}

/** The targets, judged from the smallest size to the largest measured. */
function evaluate(results) {
  const sizes = results.sizes.filter((s) => !s.failed);
  const targets = [];
  if (sizes.length < 2) return targets;
  const [small, large] = [sizes[0], sizes.at(-1)];
  const span = `${small.articles.toLocaleString('en-US')} → ${large.articles.toLocaleString('en-US')}`;
  const rowAt = (size, name) => size.rows.find((r) => r.name === name && !r.failed);
  const growth = (name) => {
    const [a, b] = [rowAt(small, name), rowAt(large, name)];
    return a && b ? { a, b, ratio: b.p50 / Math.max(a.p50, 1) } : null;
  };
  for (const row of small.rows.filter((r) => r.flat)) {
    const g = growth(row.name);
    targets.push({
      target: `${row.name}: flat, p50 ≤ ${FLAT_LIMIT}× from ${span} articles`,
      value: g ? `${g.ratio.toFixed(2)}× (${fmt(g.a.p50)} → ${fmt(g.b.p50)} ms)` : 'not measured',
      ok: g ? g.ratio <= FLAT_LIMIT : null,
    });
  }
  const sitemap = growth('whole sitemap');
  if (sitemap) {
    const perArticle = (row, size) => row.p50 / size.articles;
    const ratio = perArticle(sitemap.b, large) / perArticle(sitemap.a, small);
    targets.push({
      target: `whole sitemap: linear, time per article at ${large.articles.toLocaleString('en-US')} ≤ ${FLAT_LIMIT}× that at ${small.articles.toLocaleString('en-US')}`,
      value: `${ratio.toFixed(2)}× (${fmt(perArticle(sitemap.a, small) * 1000, 1)} → ${fmt(perArticle(sitemap.b, large) * 1000, 1)} µs per article; ${fmt(sitemap.a.p50)} → ${fmt(sitemap.b.p50)} ms)`,
      ok: ratio <= FLAT_LIMIT,
    });
  }
  const search = growth('search');
  if (search && search.a.matches && search.b.matches) {
    const matches = search.b.matches / search.a.matches;
    targets.push({
      target: `search: sublinear in its match count (p50 grows less than the matches, ${span} articles)`,
      value: `p50 ${search.ratio.toFixed(2)}× (${fmt(search.a.p50)} → ${fmt(search.b.p50)} ms) for ${matches.toFixed(1)}× the matches (${search.a.matches} → ${search.b.matches})`,
      ok: search.ratio < matches,
    });
  }
  return targets;
}

const ROW_NAMES = ['list, first page', 'list, last page', 'detail', 'search', 'thread, first page', 'sitemap page 1', 'whole sitemap'];
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

/** The plot: x = articles (log), y = p50 ms (log), one line per row, from the run's own figures. */
export function scaleSvg(results) {
  const sizes = results.sizes.filter((s) => !s.failed);
  const width = 760;
  const height = 420;
  const margin = { left: 64, right: 190, top: 36, bottom: 48 };
  const points = ROW_NAMES.map((name) =>
    sizes.map((s) => ({ x: s.articles, y: s.rows.find((r) => r.name === name && !r.failed)?.p50 })).filter((p) => p.y !== undefined),
  );
  const ys = points.flat().map((p) => Math.max(p.y, 0.5));
  const xs = sizes.map((s) => s.articles);
  const [x0, x1] = [Math.log10(Math.min(...xs)) - 0.15, Math.log10(Math.max(...xs)) + 0.15];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  const px = (x) => margin.left + ((Math.log10(x) - x0) / (x1 - x0 || 1)) * (width - margin.left - margin.right);
  const py = (y) => height - margin.bottom - ((Math.log10(Math.max(y, 0.5)) - y0) / (y1 - y0 || 1)) * (height - margin.top - margin.bottom);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${margin.left}" y="20" font-size="14">p50 per request (ms, log) against published articles (log), response cache off, ${results.database}</text>`,
  ];
  for (let e = y0; e <= y1; e += 1) {
    const y = py(10 ** e);
    out.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y}" y2="${y}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${margin.left - 6}" y="${y + 4}" text-anchor="end">${10 ** e >= 1 ? (10 ** e).toLocaleString('en-US') : 10 ** e}</text>`);
  }
  for (const x of xs) {
    out.push(`<line x1="${px(x)}" x2="${px(x)}" y1="${margin.top}" y2="${height - margin.bottom}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${px(x)}" y="${height - margin.bottom + 16}" text-anchor="middle">${x.toLocaleString('en-US')}</text>`);
  }
  out.push(`<text x="${(margin.left + width - margin.right) / 2}" y="${height - 10}" text-anchor="middle">published articles</text>`);
  points.forEach((line, i) => {
    if (line.length === 0) return;
    out.push(
      `<polyline fill="none" stroke="${COLOURS[i]}" stroke-width="2" points="${line.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const p of line) out.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="${COLOURS[i]}"><title>${ROW_NAMES[i]}: ${fmt(p.y, 1)} ms at ${p.x}</title></circle>`);
    const y = margin.top + 10 + i * 18;
    out.push(`<line x1="${width - margin.right + 12}" x2="${width - margin.right + 32}" y1="${y - 4}" y2="${y - 4}" stroke="${COLOURS[i]}" stroke-width="2"/>`);
    out.push(`<text x="${width - margin.right + 38}" y="${y}">${ROW_NAMES[i]}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

const holds = (ok) => (ok === null ? 'n/a' : ok ? 'holds' : 'MISSED');

export function scaleMarkdown(results) {
  const sizes = results.sizes;
  const label = (n) => n.toLocaleString('en-US');
  const mb = (bytes) => (bytes === null || bytes === undefined ? '–' : fmt(bytes / 2 ** 20));
  const lines = [
    `# Scale run, ${results.database}`,
    '',
    `${results.date} · ${results.machine.cpus}× ${results.machine.cpu} · Node ${results.machine.node} · load average at start ` +
      `${results.machine.loadAverage} · response cache off · ${CONNECTIONS} connections, ${DURATION} s per row (by count, ` +
      `${CONNECTIONS * 2} responses, where marked *); the whole sitemap one request after another, 5 times (3 from 500,000 ` +
      'articles; its p99 is then the slowest).',
    '',
    `| row | ${sizes.map((s) => `${label(s.articles)}: p50 / p99 ms`).join(' | ')} |`,
    `|---|${sizes.map(() => '---:').join('|')}|`,
  ];
  for (const name of ROW_NAMES) {
    const cells = sizes.map((s) => {
      if (s.failed) return 'failed';
      const r = s.rows.find((row) => row.name === name);
      if (!r) return '–';
      if (r.failed) return `failed: ${r.failed}`;
      const note = r.matches !== undefined ? ` (${r.matches} matches)` : r.pages !== undefined ? ` (${r.pages ? `index + ${r.pages} pages` : 'one urlset'}, ${fmt(r.bytes / 1e6, 1)} MB)` : r.urls ? ` (${r.urls} URLs)` : '';
      return `${fmt(r.p50)} / ${fmt(r.p99)}${r.byCount ? ' *' : ''}${note}`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  const extra = [
    ['seeding (SQL), s', (s) => fmt(s.seedMs / 1000, 1)],
    ['search index build from empty, s', (s) => fmt(s.indexBuildMs / 1000, 1)],
    ['database file, MB', (s) => mb(s.databaseBytes)],
    ['boot to listening, ms', (s) => fmt(s.bootMs)],
    ['load average (1 min) when measured', (s) => fmt(s.loadAverage, 1)],
    ['RSS after boot, MB', (s) => mb(s.rssAfterBootBytes)],
    ['RSS after the rows, MB', (s) => mb(s.rssAfterRowsBytes)],
  ];
  for (const [name, value] of extra) lines.push(`| ${name} | ${sizes.map((s) => (s.failed ? '–' : value(s))).join(' | ')} |`);
  lines.push('', `Failed sizes: ${sizes.filter((s) => s.failed).map((s) => `${label(s.articles)} (${s.failed})`).join(', ') || 'none'}.`, '');
  lines.push('## Targets', '', '| target | measured | |', '|---|---|---|');
  for (const t of results.targets) lines.push(`| ${t.target} | ${t.value} | ${holds(t.ok)} |`);
  lines.push('', `Plot: [\`docs/images/${NAME}.svg\`](../../docs/images/${NAME}.svg).`);
  return lines.join('\n') + '\n';
}

export async function scaleRun() {
  const began = Date.now();
  fs.mkdirSync(TMP, { recursive: true });
  const results = {
    date: new Date().toISOString(),
    database: DB === 'postgres' ? 'PostgreSQL' : 'SQLite',
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverage: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    },
    connections: CONNECTIONS,
    durationS: DURATION,
    sizes: [],
  };
  const write = () => {
    results.targets = evaluate(results);
    results.totalS = (Date.now() - began) / 1000;
    fs.writeFileSync(path.join(RESULTS, `${NAME}.json`), JSON.stringify(results, null, 2) + '\n');
    fs.writeFileSync(path.join(RESULTS, `${NAME}.md`), scaleMarkdown(results));
    fs.mkdirSync(path.dirname(SVG), { recursive: true });
    if (results.sizes.some((s) => !s.failed)) fs.writeFileSync(SVG, scaleSvg(results));
  };
  for (const articles of SCALE_SIZES) {
    try {
      results.sizes.push(await measureSize(articles));
    } catch (error) {
      log(`scale ${articles}: failed: ${error.message}`);
      results.sizes.push({ articles, failed: error.message.split('\n')[0] });
    }
    // Written after every size, so a long run leaves what it measured so far.
    write();
  }
  console.log(`\n${scaleMarkdown(results)}`);
  log(`done in ${results.totalS.toFixed(0)} s; wrote bench/results/${NAME}.md and .json, docs/images/${NAME}.svg`);
  if (results.sizes.every((s) => s.failed)) process.exitCode = 1;
}
