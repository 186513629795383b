/**
 * Bulk seeding by SQL, shared by bench/seed.mjs, bench/scale-seed.mjs, scripts/search-bench.mjs and
 * scripts/discovery-sitemap-memory.mjs: rows written with knex in batches in the layout the Document Service uses
 * (a published draft-and-publish document is two rows sharing `document_id`, the draft with `published_at` null;
 * link-table rows with their order columns), minutes for a million articles where the Document Service would take
 * hours. SQLite: dates as epoch milliseconds and booleans 0/1, as better-sqlite3 stores them; PostgreSQL: dates and
 * booleans, and each table's id sequence moved past the ids written here.
 */
import crypto from 'crypto';

const P = 'plugin::cms-plugin-bag';

/** mulberry32: a deterministic random number generator on 32-bit integers (the same seed, the same data). */
export const seededRandom = (seed) => {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** 5,000 made-up words (`kalox`, `lokax`, …): each article's text draws from them, so a word matches a known share. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'po', 'qu', 'da', 'fe', 'gi', 'ho', 'ju'];
export const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / 16)) word += SYLLABLES[n % 16];
  return `${word}x`;
});

/** `n` words of the vocabulary drawn with `random`. */
export const wordsOf = (random) => (n) =>
  Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(' ');

export const PARAGRAPH =
  'Strapi is a headless CMS; this paragraph pads a benchmark document to about two kilobytes so that the rows ' +
  'read and searched have the size of a real blog post rather than a few bytes of placeholder text. ';

/** A 24-character lower-case document id, as the Document Service makes them. */
/** The fields of article `n` in the search and scale runs: a made-up title, summary and ~2 KB of content from `words`. */
export const searchableArticle = (words) => (n) => ({
  title: `Article ${n} ${words(4)}`,
  slug: `article-${n}`,
  summary: words(20),
  content: `# Heading ${n}\n\n${words(60)} ${PARAGRAPH.repeat(5)}`,
});

export const documentId = () =>
  crypto
    .randomBytes(18)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')
    .slice(0, 24);

/**
 * The writer for one booted app: `insert(table, rows)` in batches under SQLite's limits (bound variables; knex
 * writes a multi-row insert as a compound SELECT), `link(type, attribute, pairs)` for a relation's link table
 * (`pairs` of [sourceId, targetId], order columns counting up per owner as Strapi's do), `ts` and `bool` as the
 * driver takes them, and the plugin types' tables.
 */
export function bulkWriter(strapi) {
  const knex = strapi.db.connection;
  const postgres = strapi.db.dialect.client === 'postgres';
  const table = (type) => strapi.db.metadata.get(`${P}.${type}`).tableName;
  const joinTable = (type, attribute) => strapi.db.metadata.get(`${P}.${type}`).attributes[attribute].joinTable;
  const insert = async (name, rows) => {
    if (rows.length === 0) return;
    const size = Math.min(400, Math.floor(30000 / Object.keys(rows[0]).length));
    await knex.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += size) await trx(name).insert(rows.slice(i, i + size));
    });
    if (postgres && rows[0].id !== undefined) {
      await knex.raw(`SELECT setval(pg_get_serial_sequence(?, 'id'), (SELECT MAX(id) FROM ??))`, [name, name]);
    }
  };
  const link = async (type, attribute, pairs) => {
    const jt = joinTable(type, attribute);
    const forward = new Map();
    const inverse = new Map();
    const rows = pairs.map(([source, target]) => {
      const row = { [jt.joinColumn.name]: source, [jt.inverseJoinColumn.name]: target };
      if (jt.orderColumnName) {
        forward.set(source, (forward.get(source) ?? 0) + 1);
        row[jt.orderColumnName] = forward.get(source);
      }
      if (jt.inverseOrderColumnName) {
        inverse.set(target, (inverse.get(target) ?? 0) + 1);
        row[jt.inverseOrderColumnName] = inverse.get(target);
      }
      return row;
    });
    await insert(jt.name, rows);
  };
  return {
    knex,
    postgres,
    ts: (ms) => (postgres ? new Date(ms) : ms),
    bool: (value) => (postgres ? Boolean(value) : value ? 1 : 0),
    table,
    joinTable,
    insert,
    link,
  };
}

/**
 * `count` published articles in the default locale `en`, each a draft row and a published row (ids `firstId`,
 * `firstId + 1`, … in that order), `fields(n)` giving the n-th article's columns (title, slug, summary, content, …);
 * `publishedAt(n)` its publication time in epoch ms (default: now). Written `batch` documents at a time, each batch
 * in a transaction; `onBatch(rows)` sees each batch's rows (with their ids) once written, e.g. to link them.
 * Returns `{ rows, nextId, ms }`.
 */
export async function insertArticles(
  strapi,
  { count, fields, publishedAt = () => Date.now(), firstId = 1, batch = 2000, onBatch, progress },
) {
  const writer = bulkWriter(strapi);
  const { ts, bool } = writer;
  const name = writer.table('article');
  const began = Date.now();
  let id = firstId;
  for (let start = 0; start < count; start += batch) {
    const rows = [];
    for (let n = start; n < Math.min(count, start + batch); n += 1) {
      const at = publishedAt(n);
      const row = {
        document_id: documentId(),
        is_top: bool(false),
        views: 0,
        locale: 'en',
        created_at: ts(at),
        updated_at: ts(at),
        ...fields(n),
      };
      rows.push({ id: id++, ...row, published_at: null }, { id: id++, ...row, published_at: ts(at) });
    }
    await writer.insert(name, rows);
    await onBatch?.(rows);
    progress?.(Math.min(count, start + batch));
  }
  return { rows: count * 2, nextId: id, ms: Date.now() - began };
}
