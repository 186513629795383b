/**
 * Reporting: the targets judged from a run's results (`evaluate`) and the Markdown table written to
 * bench/results/<name>.md (`markdown`). Every target is a ratio to a comparator measured in the same run (or an
 * absolute bound); a missed one stays in the table, marked MISSED.
 */
import { median } from './cpu-compare.mjs';
import { BOOT_ROUNDS, CONNECTIONS, DB, DURATION, QUICK } from './options.mjs';
import {
  FLOOR_TARGET,
  LOCALE_TARGET,
  MISS_TARGET,
  REPEAT_TARGET,
  REVALIDATION_TARGET,
  SEARCH_TARGET,
  SITEMAP_MS,
  SITEMAP_RSS_BYTES,
  THREAD_PAGE,
  THREAD_TARGET,
} from './scenarios.mjs';

export const fmt = (n, digits = 0) => (n === undefined || n === null || Number.isNaN(n) ? '–' : n.toFixed(digits));
const holds = (ok) => (ok === null ? 'n/a' : ok ? 'holds' : 'MISSED');
const measured = (row) => row && !row.failed;
/**
 * Whether `b` is the reference measured in turns with `a`, in several slices each (bench/lib/measure.mjs): the same
 * object, or (a run read back from its JSON) a copy of it, as a miss's `off` is.
 */
const slicedInTurns = (a, b) =>
  a.sliceRps?.length > 1 &&
  a.sliceRps.length === b.sliceRps?.length &&
  (a.reference === b || (a.reference?.path === b.path && a.reference?.sliceRps?.join() === b.sliceRps.join()));
/**
 * `a.rps / b.rps` when both rows were measured, else null. For a row and the reference measured in turns with it: the
 * median of the slices' ratios (each slice beside the other's slice next to it), which one slow slice on either side
 * (a major GC, the load generator's own pause) moves less than it moves the totals.
 */
const ratioOf = (a, b) => {
  if (!measured(a) || !measured(b)) return null;
  return slicedInTurns(a, b) ? median(a.sliceRps.map((rps, i) => rps / b.sliceRps[i])) : a.rps / b.rps;
};
/**
 * How a ratio was taken, for the table: the totals' ratio beside a median of slices (`inverse`: of time per request,
 * b's req/s over a's, as the miss is judged).
 */
const ratioBasis = (a, b, inverse = false) =>
  slicedInTurns(a, b)
    ? `; median of ${a.sliceRps.length} slices' ratios, totals ${(inverse ? b.rps / a.rps : a.rps / b.rps).toFixed(2)}×`
    : '';
/**
 * The host's rows an uncached pair is judged against: its read as Public and with the API token, each measured in
 * turns with the plugin's (the `reference` of the row), and for the list the same two without the plugin's indexes,
 * with the plugin's rows measured in turns with them (`publicSide`, `tokenSide`). Runs recorded before measured the
 * host without the indexes right after the plugin, not in turns; before the host was measured as Public, a run has
 * only the cache-on server's token row.
 */
const uncachedComparators = (pair) => ({
  asPublic: pair.uncached?.reference ?? pair.host,
  asPublicWithoutIndexes: pair.uncachedWithoutIndexes?.reference ?? pair.hostAsPublicWithoutIndexes ?? pair.hostWithoutIndexes,
  withToken:
    pair.uncachedSameAuthWithoutIndexes?.reference ?? pair.hostWithoutIndexes ?? pair.uncachedSameAuth?.reference ?? pair.host,
  publicSide: pair.uncachedWithoutIndexes ?? pair.uncached,
  tokenSide: pair.uncachedSameAuthWithoutIndexes ?? pair.uncachedSameAuth,
});
/**
 * p99 / p50, the p50 taken as at least 1 ms (runs recorded before 2026-12-07 kept whole milliseconds, where a p50 could
 * read 0).
 */
export const spread = (row) => (measured(row) && row.p99 !== undefined ? row.p99 / Math.max(row.p50, 1) : null);
const SPREAD_LIMIT = 3;
/**
 * Below 2 ms a ratio says little: a millisecond of the scheduler's is then most of a request (p50 1 ms, p99 4 ms would
 * be "4×"). A row whose p50 is under FAST_P50_MS is judged on p99 ≤ FAST_P99_MS instead of p99 ≤ 3 × p50.
 */
const FAST_P50_MS = 2;
const FAST_P99_MS = 5;
/**
 * The database's part of a request timed one at a time: its `SELECT`s sent alone (and on PostgreSQL the server's own
 * planning and execution of them), from the bench server's `statements`.
 */
const databaseShare = ({ database }) =>
  database?.ms === null || database?.ms === undefined
    ? ''
    : `, of which its ${database.selects} SELECTs sent alone ${fmt(database.ms, 1)} ms${
        database.serverMs === undefined ? '' : ` (PostgreSQL planning and running them: ${fmt(database.serverMs, 1)} ms)`
      }`;
/** Whether the row's tail holds: p99 ≤ 3 × p50, or p99 ≤ 5 ms for a row with p50 under 2 ms; null when not measured. */
export const tailHolds = (row) => {
  const s = spread(row);
  if (s === null) return null;
  return row.p50 < FAST_P50_MS ? row.p99 <= FAST_P99_MS : s <= SPREAD_LIMIT;
};
/** A time in ms as the tables show it: tenths under 100 ms (the load generator keeps fractions of a millisecond). */
const fmtMs = (ms) => fmt(ms, ms < 100 ? 1 : 0);
const tailLabel = (row) => (row.p50 < FAST_P50_MS ? `p99 ${fmtMs(row.p99)} ms` : `${fmt(spread(row), 1)}×`);
/** A row over its tail target, with the tail of the comparator measured beside it when there is one. */
const overLabel = ([name, row, , beside, roundTrip]) =>
  `${name} ${tailLabel(row)}${
    spread(beside) !== null
      ? ` (beside it: ${tailLabel(beside)}; p99 ${fmtMs(row.p99)} against ${fmtMs(beside.p99)} ms${
          roundTrip && row.coherence ? `; its wait for the versions' SELECT p99 ${fmtMs(row.coherence.p99)} ms` : ''
        })`
      : ''
  }`;
/**
 * Whether a row over its tail target has the tail of the comparator measured beside it: that one over as well, or
 * with as long a p99 in milliseconds. A same-size floor sends the same bytes through the host's stack alone; the host
 * in turns reads the same rows in the same seconds; the row without `locale`, or the miss's same sequence with the
 * cache off, is the same work. Their p99 as long as the row's, with the row's p50 the shorter, is a tail of the machine
 * and the host (until 2026-12-07 only a floor's p99 counted, and another comparator only when over). On PostgreSQL a
 * cached read and a 304 also wait for the database server's answer to one SELECT, the cache's versions (the coherence
 * check; `coherence`, timed in the bench server), a round trip to a third process sharing the two cores with the
 * server and the load generator: a p99 longer than its comparator's by no more than that wait's p99 is that round
 * trip's tail. Not on SQLite, where the same wait is the rest of the turn, other requests' work in this process, nor
 * for an uncached request, whose wait is mostly that too.
 */
const tailOfItsComparator = ([, row, , beside, roundTrip]) =>
  tailHolds(beside) === false ||
  (spread(beside) !== null && beside.p99 + (roundTrip ? (row.coherence?.p99 ?? 0) : 0) >= row.p99);
const notMeasured = (...rows) =>
  `not measured (${rows.map((r) => r?.failed ?? (r ? null : 'no row')).filter(Boolean)[0]})`;

/**
 * A "≥ min× its comparator" target over two rows' req/s: the ratio (null when either row failed) and the table entry
 * showing both figures.
 */
const ratioTarget = (target, row, base, min, digits = 2) => {
  const ratio = ratioOf(row, base);
  return {
    ratio,
    entry: {
      target,
      value:
        ratio === null
          ? notMeasured(row, base)
          : `${ratio.toFixed(digits)}× (${fmt(row.rps)} vs ${fmt(base.rps)} req/s${ratioBasis(row, base)})`,
      ok: ratio === null ? null : ratio >= min,
    },
  };
};

/**
 * Every measured load row of a run with the label it has in the table (for the p99 ≤ 3 × p50 column and target),
 * whether it is a comparator (the host, a floor, rest-cache, a reference row), and for a row of the plugin the
 * comparator measured beside it, if any (its same-size floor, or the row it was measured in turns with): the target
 * judges the plugin's rows; a comparator's tail is shown, not judged, and next to a row over, its comparator's; and
 * whether the row's answers come from the cache (a hit or a 304) and wait for a round trip to a database server
 * (PostgreSQL) for the cache's versions.
 */
const loadRows = (results, roundTrip = results.database === 'postgres') => [
  ...results.pairs.flatMap((p) => [
    [`${p.name} (cache on)`, p.bag, false, p.floor, roundTrip],
    [`${p.name}: same-size floor`, p.floor, true],
    [`${p.name} (cache off)`, p.uncached, false, p.uncached?.reference],
    [`${p.name} (cache off, host's token)`, p.uncachedSameAuth, false, p.uncachedSameAuth?.reference],
    [`${p.name}: host`, p.host, true],
    [`${p.name}: host without indexes`, p.hostWithoutIndexes, true],
    [`${p.name}: host as Public (cache-off server)`, p.uncached?.reference, true],
    [`${p.name}: host with the token (cache-off server)`, p.uncachedSameAuth?.reference, true],
    [`${p.name}: host as Public without indexes`, p.hostAsPublicWithoutIndexes, true],
    [`${p.name} (cache off, in turns with the host without indexes)`, p.uncachedWithoutIndexes, false, p.uncachedWithoutIndexes?.reference],
    [`${p.name}: host as Public without indexes, in turns`, p.uncachedWithoutIndexes?.reference, true],
    [
      `${p.name} (cache off, host's token, in turns with the host without indexes)`,
      p.uncachedSameAuthWithoutIndexes,
      false,
      p.uncachedSameAuthWithoutIndexes?.reference,
    ],
    [`${p.name}: host with the token without indexes, in turns`, p.uncachedSameAuthWithoutIndexes?.reference, true],
    [`${p.name}: rest-cache hits`, p.restCache, true],
  ]),
  ...(results.cachedReads ?? []).flatMap((r) => [
    [`${r.name} (cache on)`, r.bag, false, r.floor, roundTrip],
    [`${r.name}: same-size floor`, r.floor, true],
  ]),
  ...results.locales.map((l) => [`${l.name} (cache ${l.cache})`, l, false, l.reference, l.cache === 'on' && roundTrip]),
  ...results.revalidations.map((r) => [r.name, r, false, r.reference, roundTrip]),
  ...results.misses.flatMap((m) => [
    [`${m.name} (cache on)`, m.miss, false, m.miss?.reference],
    // The cache-off side's comparator: the row it was measured in turns with.
    [`${m.name} (cache off)`, m.off, false, m.miss],
  ]),
  ...results.threads.map((t) => [t.name, t]),
  ...results.singles.map((s) => [s.name, s, /^floor:|reference/.test(s.name)]),
  ...(results.discovery?.search?.plugin ? [['search (cache off)', results.discovery.search.plugin]] : []),
  ...(results.discovery?.search?.host ? [['search: host $containsi', results.discovery.search.host, true]] : []),
  ...(results.repeats ?? []).flatMap((r) => [
    [`${r.name} (cache on)`, r.on, false, r.floor, roundTrip],
    [`${r.name}: same-size floor`, r.floor, true],
    [`${r.name} (cache off)`, r.off],
  ]),
  ...(results.smallEntries ? [['memory: small entries (cache on)', results.smallEntries]] : []),
  ...(results.smallEntries?.off ? [['memory: small entries (cache off)', results.smallEntries.off]] : []),
  ...(results.memory ? [['memory: distinct URLs (cache on)', results.memory]] : []),
  ...(results.memory?.off ? [['memory: distinct URLs (cache off)', results.memory.off]] : []),
];

const articlesLabel = (n) => n.toLocaleString('en-US');

/** The discovery rows: search against the host's `$containsi` and its spread, the sitemap's time and RSS growth. */
function discoveryTargets(discovery, targets) {
  if (!discovery) return;
  const n = articlesLabel(discovery.articles);
  const { search, sitemap } = discovery;
  const plugin = search.failed ? { failed: search.failed } : search.plugin;
  const host = search.failed ? { failed: search.failed } : search.host;
  const searchTarget = `search (${n} articles, cache off): ≥ ${SEARCH_TARGET}× the host's REST \`filters[$or]\` of \`$containsi\``;
  const { ratio, entry } = ratioTarget(searchTarget, plugin, host, SEARCH_TARGET, 1);
  discovery.searchRatio = ratio;
  targets.push(entry);
  const searchSpread = spread(plugin);
  targets.push({
    target: `search (${n} articles): p99 ≤ ${SPREAD_LIMIT} × p50`,
    value: searchSpread === null ? notMeasured(plugin) : `${searchSpread.toFixed(2)}× (p50 ${fmt(plugin.p50, 1)} ms, p99 ${fmt(plugin.p99, 1)} ms)`,
    ok: tailHolds(plugin),
  });
  if (!search.failed) {
    targets.push({
      target: `search index build for ${n} articles (start-up, in the background; reference)`,
      value: `${fmt(search.indexBuildMs / 1000, 1)} s (start-up returned after ${fmt(search.ensureIndexReturnedMs)} ms)`,
      ok: null,
    });
  }
  const served = !sitemap.failed && sitemap.statuses.every((status) => status === 200);
  targets.push({
    target: `sitemap of ${n} URLs (index + every page): served in ≤ ${SITEMAP_MS / 1000} s`,
    value: sitemap.failed ?? `${fmt(sitemap.totalMs)} ms, ${sitemap.pages} pages, ${fmt(sitemap.bytes / 1e6, 1)} MB (statuses ${[...new Set(sitemap.statuses)].join(', ')})`,
    ok: sitemap.failed ? null : served && sitemap.totalMs <= SITEMAP_MS,
  });
  targets.push({
    target: `sitemap of ${n} URLs: RSS growth while streaming ≤ ${SITEMAP_RSS_BYTES / 1e6} MB`,
    value: sitemap.failed ?? `+${fmt(sitemap.peakGrowthBytes / 1e6, 1)} MB over ${fmt(sitemap.restBytes / 1e6)} MB at rest${sitemap.chunked ? ', chunked' : ''}`,
    ok: sitemap.failed ? null : sitemap.peakGrowthBytes <= SITEMAP_RSS_BYTES,
  });
}

export function evaluate(results) {
  const targets = [];
  const health = results.singles.find((s) => s.floor);
  for (const pair of results.pairs) {
    const { bag, uncached, host, restCache } = pair;
    const cached = ratioTarget(`${pair.name}, cache on: ≥ ${pair.cachedTarget}× the host's REST`, bag, host, pair.cachedTarget);
    pair.ratio = cached.ratio;
    targets.push(cached.entry);
    if (pair.restCacheTarget !== undefined) {
      const hits = ratioTarget(
        `${pair.name}, cache on: ≥ ${pair.restCacheTarget.toFixed(1)}× rest-cache's hits`,
        bag,
        restCache,
        pair.restCacheTarget,
      );
      pair.restCacheRatio = hits.ratio;
      targets.push(hits.entry);
    } else if (restCache) {
      pair.restCacheRatio = ratioOf(bag, restCache);
    }
    // The uncached path against the host (the earlier issues' targets), each in turns with the host's read on the
    // cache-off server and authenticated alike (runs before that compared with the cache-on server's host row): the
    // article list against the host without the plugin's indexes, as argued there.
    const comparators = uncachedComparators(pair);
    pair.uncachedRatio = ratioOf(uncached, comparators.asPublic);
    const { publicSide, tokenSide } = comparators;
    if (comparators.asPublicWithoutIndexes) {
      pair.uncachedRatioWithoutIndexes = ratioOf(publicSide, comparators.asPublicWithoutIndexes);
    }
    const judged = comparators.asPublicWithoutIndexes ? pair.uncachedRatioWithoutIndexes : pair.uncachedRatio;
    const withoutIndexes = comparators.asPublicWithoutIndexes ? " without the plugin's indexes" : '';
    const basis = ratioBasis(publicSide, comparators.asPublicWithoutIndexes ?? comparators.asPublic);
    targets.push({
      target: `${pair.name}, cache off, as Public on both sides: ≥ ${pair.target.toFixed(1)}× the host${withoutIndexes}`,
      value:
        judged === null
          ? notMeasured(publicSide, comparators.asPublicWithoutIndexes ?? comparators.asPublic)
          : `${judged.toFixed(2)}×${basis ? ` (${basis.slice(2)})` : ''}${
              comparators.asPublicWithoutIndexes && pair.uncachedRatio !== null
                ? ` (${pair.uncachedRatio.toFixed(2)}× the host sharing them)`
                : ''
            }`,
      ok: judged === null ? null : judged >= pair.target,
    });
    if (tokenSide) {
      // With the host comparator's API token on both sides neither pays the Public role's permission read and ability
      // (the host's users-permissions, per request): the reads alone.
      const base = comparators.withToken;
      pair.uncachedSameAuthRatio = ratioOf(tokenSide, base);
      targets.push({
        target: `${pair.name}, cache off, with the host's API token on both sides: ≥ ${pair.target.toFixed(1)}× the host${withoutIndexes}`,
        value:
          pair.uncachedSameAuthRatio === null
            ? notMeasured(tokenSide, base)
            : `${pair.uncachedSameAuthRatio.toFixed(2)}× (${fmt(tokenSide.rps)} vs ${fmt(base.rps)} req/s${ratioBasis(
                tokenSide,
                base,
              )}; as Public ${fmt(publicSide?.rps)} req/s)`,
        ok: pair.uncachedSameAuthRatio === null ? null : pair.uncachedSameAuthRatio >= pair.target,
      });
    }
    for (const [label, row, limit] of [
      ['cache on', bag, pair.cachedStallMs],
      ['cache off', uncached, pair.stallMs],
    ]) {
      if (limit === undefined) continue;
      const gc =
        row?.longestGcMs === undefined ? '' : ` (longest GC pause in those requests: ${fmt(row.longestGcMs, 1)} ms)`;
      targets.push({
        target: `${pair.name}, ${label}: no event-loop stall over ${limit} ms`,
        value: measured(row) ? `max ${fmt(row.maxStallMs, 1)} ms${gc}` : notMeasured(row),
        ok: measured(row) ? row.maxStallMs <= limit : null,
      });
    }
  }
  // Every cached read against the host answering its bytes from a Buffer (the same-size floor).
  for (const read of [...results.pairs, ...(results.cachedReads ?? []), ...(results.repeats ?? [])]) {
    if (!read.floor) continue;
    const target = `${read.name}, cache on: ≥ ${FLOOR_TARGET}× its same-size floor`;
    const judged = ratioTarget(target, read.bag ?? read.on, read.floor, FLOOR_TARGET);
    read.floorRatio = judged.ratio;
    targets.push(judged.entry);
  }
  for (const locale of results.locales) {
    const base = results.pairs.find((p) => p.name === locale.base)?.[locale.cache === 'on' ? 'bag' : 'uncached'];
    const judged = ratioTarget(
      `${locale.name}, cache ${locale.cache}: ≥ ${LOCALE_TARGET}× ${locale.base} without locale${locale.reference ? ', measured in turns' : ''}`,
      locale,
      locale.reference ?? base,
      LOCALE_TARGET,
    );
    locale.ratio = judged.ratio;
    targets.push(judged.entry);
  }
  for (const revalidation of results.revalidations) {
    const judged = ratioTarget(
      `${revalidation.name} (If-None-Match): ≥ ${REVALIDATION_TARGET}× /_health${revalidation.reference ? ', measured in turns' : ''}`,
      revalidation,
      revalidation.reference ?? health,
      REVALIDATION_TARGET,
    );
    revalidation.ratio = judged.ratio;
    targets.push(judged.entry);
  }
  for (const miss of results.misses) {
    // Time per request is the inverse of throughput at the same connections: miss time / uncached time.
    const throughput = ratioOf(miss.miss, miss.off);
    miss.timeRatio = throughput === null ? null : 1 / throughput;
    targets.push({
      target: `${miss.name}: ≤ ${MISS_TARGET}× the time with the cache off`,
      value:
        miss.timeRatio === null
          ? notMeasured(miss.miss, miss.off)
          : `${miss.timeRatio.toFixed(2)}× (${fmt(miss.miss.rps)} vs ${fmt(miss.off.rps)} req/s${ratioBasis(miss.miss, miss.off, true)})`,
      ok: miss.timeRatio === null ? null : miss.timeRatio <= MISS_TARGET,
    });
  }
  for (const repeat of results.repeats ?? []) {
    repeat.ratio = measured(repeat.on) && measured(repeat.off) ? repeat.on.rps / repeat.off.rps : null;
    targets.push({
      target: `${repeat.name}: ≥ ${REPEAT_TARGET}× the throughput with the cache off`,
      value:
        repeat.ratio === null
          ? notMeasured(repeat.on, repeat.off)
          : `${repeat.ratio.toFixed(1)}× (${fmt(repeat.on.rps)} vs ${fmt(repeat.off.rps)} req/s)`,
      ok: repeat.ratio === null ? null : repeat.ratio >= REPEAT_TARGET,
    });
  }
  const small = results.smallEntries;
  if (small) {
    const bound = small.maxBytes * 1.2;
    targets.push({
      target: `RSS after ${small.urls ?? '–'} distinct small answers: ≤ cache.maxBytes (${fmt(small.maxBytes / 2 ** 20)} MiB) + 20% over the same with the cache off`,
      value: small.failed
        ? `not measured (${small.failed})`
        : `${small.overOffBytes >= 0 ? '+' : ''}${fmt(small.overOffBytes / 2 ** 20, 1)} MB (${fmt(small.afterBytes / 2 ** 20, 1)} vs ${fmt(
            small.off.afterBytes / 2 ** 20,
            1,
          )} MB); retained (heap used + external) ${fmt(small.retainedGrowthBytes / 2 ** 20, 1)} MB over its warm state, ${fmt(
            small.off.retainedGrowthBytes / 2 ** 20,
            1,
          )} MB with the cache off`,
      ok: small.failed ? null : small.overOffBytes <= bound,
    });
  }
  const memory = results.memory;
  if (memory) {
    const bound = memory.maxBytes + 20 * 2 ** 20;
    targets.push({
      target: `RSS after ${memory.urls ?? '–'} distinct URLs: ≤ cache.maxBytes (${fmt(
        (memory.maxBytes ?? 0) / 2 ** 20,
      )} MiB) + 20 MB over the same with the cache off`,
      value: memory.failed
        ? `not measured (${memory.failed})`
        : `${memory.overOffBytes >= 0 ? '+' : ''}${fmt(memory.overOffBytes / 2 ** 20, 1)} MB (${fmt(
            memory.afterBytes / 2 ** 20,
            1,
          )} vs ${fmt(memory.off.afterBytes / 2 ** 20, 1)} MB); retained (heap used + external) ${fmt(
            memory.retainedGrowthBytes / 2 ** 20,
            1,
          )} MB over its warm state, ${fmt(memory.off.retainedGrowthBytes / 2 ** 20, 1)} MB with the cache off`,
      ok: memory.failed ? null : memory.overOffBytes <= bound,
    });
  }
  const deep = results.deepQuery;
  if (deep) {
    const ok = deep.failed ? null : deep.p50 < 50;
    const ofTheDatabase = databaseShare(deep);
    // A miss the database explains: the host's same query slower, and more than half of the plugin's time the
    // database running the statements (the host's query engine writes them) sent alone.
    const explained = ok === false && deep.host?.p50 > deep.p50 && deep.database?.ms > deep.p50 / 2;
    targets.push({
      target: 'deepest list query content.maxRelationDepth allows: < 50 ms (median, one at a time, cache off)',
      value:
        deep.failed ??
        `p50 ${fmt(deep.p50, 1)} ms, max ${fmt(deep.max, 1)} ms (${deep.rows} rows, ${deep.bytes} bytes)${ofTheDatabase}${
          deep.host
            ? `; the host's REST, the same query right after it: ${
                deep.host.failed ??
                `p50 ${fmt(deep.host.p50, 1)} ms${databaseShare(deep.host)} (the plugin in ${fmt(deep.p50 / deep.host.p50, 2)}× its time)`
              }`
            : ''
        }${
          explained
            ? '; explained: the host is slower, and over half the time is the database running the statements alone'
            : ''
        }`,
      ok,
    });
  }
  const tree = results.pairs.find((p) => p.name === 'comments tree')?.uncached;
  const [page] = results.threads ?? [];
  if (page) {
    const ratio = ratioOf(page, tree);
    targets.push({
      target: `comments page (${THREAD_PAGE} roots), cache off: ≥ ${THREAD_TARGET}× the full tree's req/s`,
      value:
        ratio === null ? notMeasured(page, tree) : `${ratio.toFixed(1)}× (${fmt(page.rps)} vs ${fmt(tree.rps)} req/s)`,
      ok: ratio === null ? null : ratio >= THREAD_TARGET,
    });
  }
  discoveryTargets(results.discovery, targets);
  const measuredRows = loadRows(results).filter(([, row]) => spread(row) !== null);
  const spreads = measuredRows.filter(([, , comparator]) => !comparator);
  const wide = spreads.filter(([, row]) => !tailHolds(row));
  const widerComparators = measuredRows.filter(([, row, comparator]) => comparator && !tailHolds(row));
  const comparatorNote = widerComparators.length
    ? `; comparators over (not judged): ${widerComparators.map(([name, row]) => `${name} ${tailLabel(row)}`).join(', ')}`
    : '';
  targets.push({
    target: `p99 ≤ ${SPREAD_LIMIT} × p50 at ${CONNECTIONS} connections, every row of the plugin (column p99/p50; a row with p50 under ${FAST_P50_MS} ms: p99 ≤ ${FAST_P99_MS} ms)`,
    value:
      spreads.length === 0
        ? 'not measured'
        : wide.length === 0
          ? `all ${spreads.length} rows${comparatorNote}`
          : `${spreads.length - wide.length} of ${spreads.length} rows; over: ${wide.map(overLabel).join(', ')}; ` +
            `${wide.filter(tailOfItsComparator).length} of the ${wide.length} over had a comparator measured beside ` +
            `it over as well, or with as long a p99 (on PostgreSQL, a cached read's or a 304's shorter by at most the ` +
            `p99 of its wait for the cache's versions)${comparatorNote}`,
    ok: spreads.length === 0 ? null : wide.length === 0,
  });
  targets.push(...bootTargets(results.boot));
  results.targets = targets;
}

/**
 * The boot targets: what the plugin adds to the bare playground's boot, judged on CPU time (user + system until it
 * listens; wall-clock time shown beside it swings with whatever shares the cores) and on RSS. Beside the CPU time,
 * what the host spends on the plugin's content types alone (the `types` side, none of the plugin's code): a miss is
 * marked explained when that is at least the excess, i.e. the plugin's code on top of its data model is within the
 * budget.
 */
function bootTargets(boot) {
  if (!boot) return [];
  const addedMs = boot.with.bootMs - boot.without.bootMs;
  const addedMb = (boot.with.rssBytes - boot.without.rssBytes) / 2 ** 20;
  const addedCpuMs = boot.with.cpuMs - boot.without.cpuMs;
  const typesCpuMs = boot.types ? boot.types.cpuMs - boot.without.cpuMs : undefined;
  const explained = addedCpuMs > 300 && typesCpuMs !== undefined && typesCpuMs >= addedCpuMs - 300;
  return [
    {
      target: 'plugin adds ≤ 300 ms to boot (CPU)',
      value: `${fmt(addedCpuMs)} ms CPU, ${fmt(addedMs)} ms wall${
        typesCpuMs === undefined
          ? ''
          : `; its content types alone, none of its code: ${fmt(typesCpuMs)} ms CPU (the host's work for its data model), its code on top of them ${fmt(addedCpuMs - typesCpuMs)} ms`
      }${explained ? '; explained: the host\'s work for the content types is at least the excess' : ''}`,
      ok: addedCpuMs <= 300,
    },
    { target: 'plugin adds ≤ 40 MB to RSS', value: `${fmt(addedMb, 1)} MB`, ok: addedMb <= 40 },
  ];
}

/** The boot comparison alone (`--only=boot`): its targets. */
export function evaluateBoot(results) {
  results.targets = bootTargets(results.boot);
}

export function markdown(results) {
  const lines = [];
  const { machine } = results;
  const database = DB === 'postgres' ? 'PostgreSQL' : 'SQLite';
  lines.push(`# Benchmark, ${database}${QUICK ? ' (quick smoke run: small data, 1 s per endpoint)' : ''}`, '');
  lines.push(
    `${results.date} · ${machine.cpus}× ${machine.cpu} · ${machine.memoryGb} GB · Node ${machine.node} · ` +
      `load average at start ${machine.loadAverage} · ${CONNECTIONS} connections, ${DURATION} s per endpoint ` +
      `(by count, ${CONNECTIONS * 2} responses, where marked *) after ${fmt(DURATION / 5, 1)} s of warm-up · ` +
      `${database} · NODE_ENV=production`,
    '',
  );
  const c = results.counts;
  lines.push(
    `Data: ${c.publishedArticles} published articles (+${c.draftOnlyArticles} drafts; ${c.frenchArticles ?? 0} of ` +
      `them also in French), ${c.approvedComments} approved + ${c.pendingComments} pending comments on one article, ` +
      `${c.menuItems} menu items, ${c.publishedPages} pages, ${c.publishedBanners} banners ` +
      `(seeded in ${fmt(results.seedMs / 1000, 1)} s).`,
    '',
  );
  const header = (first) => [
    `| ${first} | req/s | p50 ms | p99 ms | p99/p50 | max stall ms | ratio | target |`,
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  const cell = (row) => {
    if (!row) return 'not measured | – | – | – | –';
    if (row.failed) return `**failed:** ${row.failed} | – | – | – | –`;
    const s = spread(row);
    return `${fmt(row.rps)} | ${fmtMs(row.p50)} | ${fmtMs(row.p99)} | ${s === null ? '–' : `${fmt(s, 1)}${tailHolds(row) ? '' : ' ✗'}`} | ${
      row.maxStallMs === undefined ? '' : fmt(row.maxStallMs, 1)
    }`;
  };
  const flags = (row) => {
    if (!row || row.failed) return '';
    const count = row.byCount ? ' *' : '';
    return row.non2xx || row.errors ? `${count} (${row.non2xx} unexpected status, ${row.errors} errors)` : count;
  };
  const times = (ratio) => (ratio === null || ratio === undefined ? '–' : `**${ratio.toFixed(2)}×**`);
  const judge = (ratio, target, atMost = false) =>
    `${atMost ? '≤' : '≥'} ${target}× ${holds(ratio === null || ratio === undefined ? null : atMost ? ratio <= target : ratio >= target)}`;
  const path = (row, fallback) => `\`${row?.method ?? 'GET'} ${row?.path ?? fallback}\``;
  const floorLine = (read) =>
    `| ↳ same-size floor (${read.floor.bytes ?? '–'} bytes)${flags(read.floor)} | ${cell(read.floor)} | ${times(read.floorRatio)} | ${judge(
      read.floorRatio,
      FLOOR_TARGET,
    )} |`;

  lines.push("## Response cache on (the plugin's default) against the host's REST and rest-cache", '');
  lines.push(...header('endpoint'));
  for (const pair of results.pairs) {
    lines.push(
      `| ${path(pair.bag)}${flags(pair.bag)} | ${cell(pair.bag)} | ${times(pair.ratio)} | ${judge(pair.ratio, pair.cachedTarget)} |`,
    );
    if (pair.restCache) {
      lines.push(
        `| ↳ rest-cache hits: \`GET ${pair.restCache.path?.split('?')[0]}\`${flags(pair.restCache)} | ${cell(pair.restCache)} | ${times(
          pair.restCacheRatio,
        )} | ${pair.restCacheTarget === undefined ? '' : judge(pair.restCacheRatio, pair.restCacheTarget)} |`,
      );
    }
    if (pair.floor) lines.push(floorLine(pair));
    lines.push(`| ↳ host: \`GET ${pair.host.path?.split('?')[0]}\`${flags(pair.host)} | ${cell(pair.host)} | | |`);
  }
  for (const read of results.cachedReads ?? []) {
    lines.push(`| ${read.name}: ${path(read.bag, read.path)}${flags(read.bag)} | ${cell(read.bag)} | | |`);
    if (read.floor) lines.push(floorLine(read));
  }
  lines.push(
    '',
    "*ratio*: the plugin's req/s over the comparator's (host or rest-cache hits), same run. *Same-size floor*: " +
      '`GET /api/host/floor/<row>`, the host answering the row\'s captured bytes and headers from a Buffer through its ' +
      'own middlewares and router, measured right after the row with the same settings; the ratio is the row over it.',
    '',
  );

  lines.push('## Response cache off: the uncached path', '');
  lines.push(...header('endpoint'));
  for (const pair of results.pairs) {
    const comparators = uncachedComparators(pair);
    const versus = comparators.asPublicWithoutIndexes
      ? `${times(pair.uncachedRatioWithoutIndexes)} / ${times(pair.uncachedRatio)}`
      : times(pair.uncachedRatio);
    const judged = comparators.asPublicWithoutIndexes ? pair.uncachedRatioWithoutIndexes : pair.uncachedRatio;
    const hostPath = `\`GET ${pair.host.path?.split('?')[0]}\``;
    const hostRow = (label, row) => {
      if (row && row !== pair.host) lines.push(`| ↳ host ${label}: ${hostPath}${flags(row)} | ${cell(row)} | | |`);
    };
    lines.push(
      `| ${path(pair.uncached, pair.bag.path)}${flags(pair.uncached)} | ${cell(pair.uncached)} | ${versus} | ${judge(judged, pair.target)} |`,
    );
    hostRow('as Public, in turns', pair.uncached?.reference);
    // The plugin's read again, in turns with the host without the plugin's indexes (what the list is judged on).
    const againWithoutIndexes = (label, row) => {
      if (row) lines.push(`| ↳ the same${label}, in turns with the host without the plugin's indexes${flags(row)} | ${cell(row)} | | |`);
    };
    againWithoutIndexes('', pair.uncachedWithoutIndexes);
    hostRow("as Public, without the plugin's indexes", pair.uncachedWithoutIndexes?.reference ?? pair.hostAsPublicWithoutIndexes);
    if (pair.uncachedSameAuth) {
      lines.push(
        `| ↳ with the host's API token${flags(pair.uncachedSameAuth)} | ${cell(pair.uncachedSameAuth)} | ${times(pair.uncachedSameAuthRatio)} | ${judge(
          pair.uncachedSameAuthRatio,
          pair.target,
        )} |`,
      );
    }
    hostRow('with the token, in turns', pair.uncachedSameAuth?.reference);
    againWithoutIndexes(' with the token', pair.uncachedSameAuthWithoutIndexes);
    hostRow("with the token, without the plugin's indexes", pair.uncachedSameAuthWithoutIndexes?.reference ?? pair.hostWithoutIndexes);
  }
  for (const row of results.threads ?? []) {
    lines.push(`| ${row.name}: ${path(row)}${flags(row)} | ${cell(row)} | | |`);
  }
  lines.push(
    '',
    "*ratio*: the uncached plugin's req/s over the host's, both on the cache-off server (the host API is not behind " +
      "the plugin's cache), measured in turns and authenticated alike: as Public (the role may read the host's API " +
      "in the benchmark), and *with the host's API token* (a full-access token) on both sides, where neither pays the " +
      "Public role's permission read and ability that the host's users-permissions builds on every request. Article " +
      "list: the plugin's read measured again in turns with the host without the plugin's indexes (dropped before " +
      "each of the host's slices, put back before each of the plugin's), its ratio / over the host sharing them.",
    '',
  );

  lines.push('## Locales, revalidation, misses', '');
  lines.push(...header('row'));
  for (const locale of results.locales) {
    lines.push(
      `| ${locale.name}, cache ${locale.cache}: ${path(locale)}${flags(locale)} | ${cell(locale)} | ${times(locale.ratio)} | ${judge(
        locale.ratio,
        LOCALE_TARGET,
      )} |`,
    );
  }
  for (const row of results.revalidations) {
    lines.push(
      `| ${row.name}: ${path(row)} + If-None-Match${flags(row)} | ${cell(row)} | ${times(row.ratio)} | ${judge(row.ratio, REVALIDATION_TARGET)} |`,
    );
  }
  for (const miss of results.misses) {
    lines.push(
      `| ${miss.name}, cache on: ${path(miss.miss, miss.path)}${flags(miss.miss)} | ${cell(miss.miss)} | ${times(miss.timeRatio)} | ${judge(miss.timeRatio, MISS_TARGET, true)} |`,
    );
    lines.push(`| ↳ the same, cache off${flags(miss.off)} | ${cell(miss.off)} | | |`);
  }
  for (const repeat of results.repeats ?? []) {
    lines.push(
      `| ${repeat.name}, cache on: ${path(repeat.on, repeat.path)}${flags(repeat.on)} | ${cell(repeat.on)} | ${times(repeat.ratio)} | ${judge(repeat.ratio, REPEAT_TARGET)} |`,
    );
    if (repeat.floor) lines.push(floorLine(repeat));
    lines.push(`| ↳ the same, cache off${flags(repeat.off)} | ${cell(repeat.off)} | | |`);
  }
  lines.push(
    '',
    '*ratio*: locale rows over the same row without `locale` on the same server, 304s over `/_health`, each pair ' +
      'measured in turns (after a warm-up of a fifth of the window each, five slices of each, alternating; the ' +
      'row\'s req/s and p50/p99 are those slices\'; the ratio is ' +
      "the median of the five slices' ratios, each slice over the other's slice next to it); misses: time per request " +
      'over the same sequence with the cache off (the inverse of the req/s ratio); the repeated sitemap: over the ' +
      'same with the cache off, and over its same-size floor (the bytes a client without `Accept-Encoding` gets: ' +
      'the kept copy is gzip; its text, decompressed for the first such request, is kept beside it). ' +
      '`<n>` in a path: a new value on every request.',
    '',
  );

  const { discovery } = results;
  if (discovery) {
    const n = articlesLabel(discovery.articles);
    lines.push(`## Discovery on ${n} published articles (a database of their own)`, '');
    lines.push(...header('row'));
    const { search, sitemap } = discovery;
    if (search.failed) lines.push(`| search | **failed:** ${search.failed} | – | – | – | | | |`);
    else {
      lines.push(
        `| search, cache off: \`GET /api/bag/search?q=<word>\` | ${cell(search.plugin)} | ${times(discovery.searchRatio)} | ${judge(
          discovery.searchRatio,
          SEARCH_TARGET,
        )} |`,
      );
      const byCount = search.host?.byCount ? ` (by count: ${search.host.requests} answered at ${search.concurrency} connections${search.host.errors ? `, ${search.host.errors} errors: ${search.host.firstError}` : ''})` : '';
      lines.push(`| ↳ host: \`GET /api/host/articles\` \`filters[$or]\` of \`$containsi\` on title, summary, content${byCount} | ${cell(search.host)} | | |`);
    }
    lines.push(
      '',
      `Search: ${search.failed ? 'failed' : `${search.concurrency} clients (the plugin for ${search.seconds} s, the host for ${search.hostRequests ?? '–'} requests), a random word of a 5,000-word vocabulary per request (sample \`${search.sample.q}\`: ${search.sample.total} matches); index built from empty in ${fmt(search.indexBuildMs / 1000, 1)} s`}. ` +
        `Sitemap: ${sitemap.failed ? `failed (${sitemap.failed})` : `the index and its ${sitemap.pages} pages fetched one after another in ${fmt(sitemap.totalMs)} ms (${fmt(sitemap.bytes / 1e6, 1)} MB), RSS sampled every 10 ms: +${fmt(sitemap.peakGrowthBytes / 1e6, 1)} MB at the peak`}. ` +
        'By scripts/search-bench.mjs and scripts/discovery-sitemap-memory.mjs.',
      '',
    );
  }

  lines.push('## Absolute figures', '');
  lines.push(...header('endpoint'));
  for (const row of results.singles) {
    lines.push(`| ${row.name}: ${path(row)}${flags(row)} | ${cell(row)} | | |`);
  }
  const small = results.smallEntries;
  if (small) {
    lines.push(`| memory: ${small.urls ?? ''} distinct small answers ${path(small)}${flags(small)} | ${cell(small)} | | |`);
    if (small.off) lines.push(`| ↳ the same, cache off${flags(small.off)} | ${cell(small.off)} | | |`);
  }
  const memory = results.memory;
  if (memory) {
    lines.push(`| memory: ${memory.urls ?? ''} distinct URLs ${path(memory)}${flags(memory)} | ${cell(memory)} | | |`);
  }
  if (memory?.off) {
    lines.push(`| ↳ the same, cache off${flags(memory.off)} | ${cell(memory.off)} | | |`);
  }
  const mb = (bytes) => fmt(bytes / 2 ** 20, 1);
  /** Where a memory row's RSS went, by mapping, and V8's heap by space (committed / used / resident). */
  const breakdown = (run, label) => {
    const part = (name, text) => {
      const { before, after } = run.parts?.[name] ?? {};
      return before === undefined || after === undefined ? [] : [`${text} ${mb(before)} → ${mb(after)} MB`];
    };
    const parts = [
      ...part('v8HeapBytes', "V8's resident heap"),
      ...part('mallocHeapBytes', "malloc's main arena ([heap])"),
      ...part('anonymousBytes', 'other anonymous mappings (V8 included)'),
      ...part('fileBytes', 'files'),
      ...part('arrayBuffersBytes', 'array buffers'),
    ];
    const { before, after } = run.heapSpaces ?? {};
    const spaces =
      before && after
        ? Object.keys(after)
            .filter((name) => after[name].size > 0 || (before[name]?.size ?? 0) > 0)
            .map((name) => {
              const was = before[name] ?? { size: 0, used: 0, physical: 0 };
              const now = after[name];
              return `${name} ${mb(was.size)}/${mb(was.used)}/${mb(was.physical)} → ${mb(now.size)}/${mb(now.used)}/${mb(now.physical)}`;
            })
        : [];
    return [
      ...(parts.length > 0 ? [`${label}: ${parts.join(', ')}.`] : []),
      ...(spaces.length > 0 ? [`${label}, V8's heap spaces (committed/used/resident MB): ${spaces.join('; ')}.`] : []),
    ];
  };
  if (memory && !memory.failed) {
    lines.push(
      '',
      `Memory: ${memory.urls} distinct URLs (${memory.bytes} bytes each) on two fresh servers, both measured after a ` +
        `full garbage collection, once RSS has settled. ` +
        `\`cache.maxBytes\` ${fmt(memory.maxBytes / 2 ** 20)} MiB: RSS ${mb(memory.beforeBytes)} ` +
        `MB after a warm-up on one URL → ${mb(memory.afterBytes)} MB (heap used ${mb(memory.heapUsedBeforeBytes)} → ` +
        `${mb(memory.heapUsedAfterBytes)} MB). Cache off: ${mb(memory.off.beforeBytes)} → ${mb(memory.off.afterBytes)} ` +
        `MB (heap used ${mb(memory.off.heapUsedBeforeBytes)} → ${mb(memory.off.heapUsedAfterBytes)} MB).`,
      ...breakdown(memory, 'Cache on'),
      ...breakdown(memory.off, 'Cache off'),
    );
  }
  if (small && !small.failed) {
    lines.push(
      '',
      `Small entries: ${small.urls} distinct small answers (${small.bytes} bytes each) on two fresh servers, the same way. ` +
        `\`cache.maxBytes\` ${fmt(small.maxBytes / 2 ** 20)} MiB: RSS ${mb(small.beforeBytes)} → ${mb(small.afterBytes)} MB ` +
        `(heap used ${mb(small.heapUsedBeforeBytes)} → ${mb(small.heapUsedAfterBytes)} MB). Cache off: ` +
        `${mb(small.off.beforeBytes)} → ${mb(small.off.afterBytes)} MB (heap used ${mb(small.off.heapUsedBeforeBytes)} → ` +
        `${mb(small.off.heapUsedAfterBytes)} MB).`,
      ...breakdown(small, 'Cache on'),
      ...breakdown(small.off, 'Cache off'),
    );
  }
  lines.push('', 'Comparator queries (full):', '');
  for (const pair of results.pairs) {
    lines.push(`- ${pair.name}: host \`${pair.host.path}\``);
    if (pair.restCache) lines.push(`- ${pair.name}: rest-cache \`${pair.restCache.path}\``);
  }
  if (results.boot) lines.push(...bootSection(results.boot));
  lines.push(...targetsSection(results.targets));
  if (results.plans) {
    lines.push('', '## Query plans: the host article list (`sort=isTop:desc,publishedAt:desc`, 25 per page)', '');
    lines.push(
      `Plugin indexes dropped for "before": ${results.plans.indexes.map((i) => `\`${i}\``).join(', ') || 'none found'}.`,
      '',
    );
    for (const q of results.plans.queries) {
      lines.push('```sql', q.sql, '```');
      lines.push(`before (${fmt(q.before.ms, 2)} ms/query):`, '```', ...q.before.plan, '```');
      lines.push(`after (${fmt(q.after.ms, 2)} ms/query):`, '```', ...q.after.plan, '```', '');
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * The boot table: median of BOOT_ROUNDS boots without the plugin, with it, and with its content types alone, every
 * sample beside it.
 */
function bootSection(boot) {
  const lines = ['', `## Boot (median of ${BOOT_ROUNDS}, process start → listening; RSS after boot)`, ''];
  lines.push('| playground | boot ms (wall) | boot CPU ms | RSS MB | samples (wall / CPU ms, RSS MB) |', '|---|---:|---:|---:|---|');
  const labels = {
    without: 'without the plugin',
    with: 'with the plugin',
    types: "without the plugin, with its content types as the app's (none of its code)",
  };
  for (const name of ['without', 'with', 'types'].filter((n) => boot[n])) {
    const b = boot[name];
    const samples = b.samples.map((s) => `${fmt(s.bootMs)} / ${fmt(s.cpuMs)}, ${fmt(s.rssBytes / 2 ** 20, 1)}`).join('; ');
    lines.push(`| ${labels[name]} | ${fmt(b.bootMs)} | ${fmt(b.cpuMs)} | ${fmt(b.rssBytes / 2 ** 20, 1)} | ${samples} |`);
  }
  lines.push(
    '',
    'Wall-clock boot time swings by seconds when other processes share the 2 cores; CPU time (user + system of ' +
      'the server process until it listens) is the steadier measure of what the plugin adds.',
  );
  return lines;
}

function targetsSection(targets) {
  return ['', '## Targets', '', '| target | measured | |', '|---|---|---|', ...targets.map((t) => `| ${t.target} | ${t.value} | ${holds(t.ok)} |`)];
}

/** The Markdown of the boot comparison alone (`--only=boot`). */
export function bootMarkdown(results) {
  const { machine } = results;
  const database = DB === 'postgres' ? 'PostgreSQL' : 'SQLite';
  return [
    `# Boot comparison, ${database}`,
    '',
    `${results.date} · ${machine.cpus}× ${machine.cpu} · ${machine.memoryGb} GB · Node ${machine.node} · ` +
      `load average at start ${machine.loadAverage} · ${database} · NODE_ENV=production · \`npm run bench -- --only=boot\``,
    ...bootSection(results.boot),
    ...targetsSection(results.targets),
    '',
  ].join('\n');
}
