/**
 * The server under test, a child of bench/run.mjs (forked, so it has an IPC channel): boots the playground as
 * `strapi start` would (the environment comes from the parent), listens, and reports its boot time (wall clock and
 * CPU time, the latter barely moved by other processes on a shared machine) and memory.
 * Over IPC it answers: `eld` (event-loop delay since the last reset: max and p99, ms, and the garbage collector's
 * longest pause; `reset: true` starts anew),
 * `waits` (how long each call for the cache's versions waited since the last ask, ms; `start: true` starts recording
 * anew, otherwise recording stops: the one SELECT a cached read and a 304 wait for, the coherence check),
 * `capture` (`on: true` starts recording the SQL knex sends, `on: false` returns it), `statements` (the last
 * capture's `SELECT`s sent again alone, `runs` times: see `timeStatements`), `indexes` (`drop: true`
 * drops the plugin's bag_idx_* indexes, `drop: false` puts them back; SQLite or PostgreSQL), `memory` (RSS, heap
 * used, heap used + external; `gc: true` collects garbage first), `floor` (registers a captured answer's status,
 * headers and bytes under a row name for `GET /api/host/floor/<row>`, see bench/lib/host-api.mjs), `idle` (answers once the server has stopped working, e.g. on
 * requests a timed load run abandoned) and `stop`. Event-loop delay is sampled every 5 ms
 * (perf_hooks.monitorEventLoopDelay), in this process.
 */
import fs from 'fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'perf_hooks';
import v8 from 'v8';
import { loadApp } from './lib/app.mjs';
import { median } from './lib/cpu-compare.mjs';
import { floors } from './lib/host-api.mjs';

const strapi = await loadApp({
  withHostApi: process.env.BENCH_HOST_API === 'true',
  withPluginTypes: process.env.BENCH_PLUGIN_TYPES === 'true',
});
const { host, port } = strapi.config.get('server');
await new Promise((resolve) => strapi.server.listen(port, host, resolve));
const bootMs = performance.now();
const { user, system } = process.cpuUsage();
// A short settle so the figure is the resting footprint, not the peak of the last bootstrap step.
await new Promise((resolve) => setTimeout(resolve, 500));

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
// The garbage collector's longest pause since the last `eld` reset: what a stall is made of when no code is.
let longestGcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longestGcMs = Math.max(longestGcMs, entry.duration);
}).observe({ entryTypes: ['gc'] });

// Each call for the cache's versions, timed while a row is measured (`waits`): wrapped on the service object the
// plugin's middleware calls.
let versionWaits = null;
const versionsService = strapi.plugin('cms-plugin-bag')?.service('cache-versions');
if (versionsService) {
  const read = versionsService.read;
  versionsService.read = function timedRead(...args) {
    const began = performance.now();
    const versions = read.apply(this, args);
    const waits = versionWaits;
    return waits ? versions.finally(() => waits.push(performance.now() - began)) : versions;
  };
}

let captured = null;
// The last capture returned, with its bindings as knex sent them (Dates, booleans), for `statements`.
let lastCapture = [];
let dropped = [];
strapi.db.connection.on('query', (query) => {
  if (captured) captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
});

/**
 * The database's own part of a request: its captured `SELECT`s sent again one after another on one of the pool's
 * connections, straight to the driver (no query builder), `runs` times. `ms`: the median over the runs of their
 * round trips added up. On PostgreSQL `serverMs` too: the median of the statements' planning and execution times
 * added up, as the server reports them (`EXPLAIN (ANALYZE, FORMAT JSON)`), without the wire and the driver.
 */
async function timeStatements(queries, runs) {
  const selects = queries.filter((q) => /^\s*(select|with)\b/i.test(q.sql));
  const client = strapi.db.connection.client;
  const postgres = strapi.db.dialect.client === 'postgres';
  const connection = await client.acquireConnection();
  const sums = [];
  const serverSums = [];
  try {
    const send = postgres
      ? (sql, bindings) => connection.query(sql, bindings)
      : (sql, bindings) => connection.prepare(sql).all(client._formatBindings(bindings));
    for (let run = 0; run < runs; run += 1) {
      const began = process.hrtime.bigint();
      for (const q of selects) await send(q.sql, q.bindings);
      sums.push(Number(process.hrtime.bigint() - began) / 1e6);
      if (!postgres) continue;
      let serverMs = 0;
      for (const q of selects) {
        const { rows } = await connection.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.sql}`, q.bindings);
        const [plan] = rows[0]['QUERY PLAN'];
        serverMs += plan['Planning Time'] + plan['Execution Time'];
      }
      serverSums.push(serverMs);
    }
  } finally {
    await client.releaseConnection(connection);
  }
  return {
    statements: queries.length,
    selects: selects.length,
    ms: sums.length ? median(sums) : null,
    ...(postgres && serverSums.length ? { serverMs: median(serverSums) } : {}),
  };
}

/** Resolves once this process has used under 10% of a core over a quarter second (or after a minute). */
const idle = async () => {
  const began = Date.now();
  for (;;) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { user, system } = process.cpuUsage(before);
    if ((user + system) / 1000 < 25 || Date.now() - began > 60_000) return Date.now() - began;
  }
};

/**
 * Resident bytes by kind of mapping (/proc/self/smaps, Linux; undefined elsewhere): glibc's main arena (`[heap]`),
 * other anonymous mappings (V8's heap pages, other malloc arenas, chunks above the mmap threshold, big buffers), and
 * files (code, the SQLite file's pages).
 */
const mappings = () => {
  try {
    const smaps = fs.readFileSync('/proc/self/smaps', 'utf8');
    const sums = { heap: 0, anonymous: 0, files: 0 };
    let kind = 'anonymous';
    for (const line of smaps.split('\n')) {
      const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (header) {
        const name = header[1].trim();
        kind = name === '[heap]' ? 'heap' : name === '' || name.startsWith('[') ? 'anonymous' : 'files';
        continue;
      }
      const rss = /^Rss: +(\d+) kB/.exec(line);
      if (rss) sums[kind] += Number(rss[1]) * 1024;
    }
    return sums;
  } catch {
    return undefined;
  }
};

/**
 * Resolves once RSS has stopped falling after a collection: V8's background threads give the pages a full collection
 * freed back to the system over the next milliseconds, so RSS read at once still counts them. Both servers of a
 * memory row read right after `gc()` showed 60–80 MB that were gone 10 ms later, a different amount on each, and the
 * difference between the two servers swung by tens of MB from run to run. Waits until two reads 20 ms apart differ
 * by under 1 MB (at most two seconds).
 */
const settled = async () => {
  const began = Date.now();
  let last = process.memoryUsage().rss;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = process.memoryUsage().rss;
    if (Math.abs(now - last) < 2 ** 20 || Date.now() - began > 2000) return;
    last = now;
  }
};

process.on('message', async (message) => {
  if (message.type === 'eld') {
    process.send({
      type: 'eld',
      maxMs: loop.max / 1e6,
      p99Ms: loop.percentile(99) / 1e6,
      longestGcMs,
    });
    if (message.reset) {
      loop.reset();
      longestGcMs = 0;
    }
  } else if (message.type === 'waits') {
    process.send({ type: 'waits', waits: versionWaits ?? [] });
    versionWaits = message.start ? [] : null;
  } else if (message.type === 'capture') {
    if (message.on) {
      captured = [];
      process.send({ type: 'capturing' });
    } else {
      process.send({ type: 'capture', queries: captured ?? [] });
      lastCapture = captured ?? [];
      captured = null;
    }
  } else if (message.type === 'statements') {
    try {
      process.send({ type: 'statements', ...(await timeStatements(lastCapture, message.runs)) });
    } catch (error) {
      process.send({ type: 'statements', failed: error.message, ms: null });
    }
  } else if (message.type === 'indexes') {
    // The plugin's own indexes (bag_idx_*) dropped and put back, to measure the host as it runs without them: the
    // comparator the issue describes for the article list.
    const knex = strapi.db.connection;
    // Each is asked for before every turn of a pair measured in turns: dropped or put back once.
    if (message.drop && dropped.length === 0) {
      dropped =
        strapi.db.dialect.client === 'postgres'
          ? (
              await knex.raw(
                "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'bag_idx_%'",
              )
            ).rows
          : await knex.raw("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'bag_idx_%'");
      for (const { name } of dropped) await knex.raw(`DROP INDEX "${name}"`);
    } else if (!message.drop) {
      for (const { sql } of dropped) await knex.raw(sql);
      dropped = [];
    }
    process.send({ type: 'indexes', names: (message.drop ? dropped : []).map((index) => index.name) });
  } else if (message.type === 'memory') {
    // Resident set size, after a full garbage collection when asked (the server runs with --expose-gc).
    if (message.gc && global.gc) {
      global.gc();
      global.gc();
      await settled();
    }
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    // heapUsed + external: what live JavaScript objects and buffers hold, steadier than RSS. v8HeapBytes: the V8
    // heap's resident pages, the part of RSS that is V8's (the rest: buffers' memory from malloc, code, the database).
    // mallocHeapBytes: glibc's main arena (`[heap]` in /proc/self/smaps, Linux), where small and mid-sized buffers
    // freed among live ones stay resident.
    const v8HeapBytes = v8.getHeapStatistics().total_physical_size;
    // Each V8 heap space (old, new, large objects, code, ...): committed (`size`), live (`used`) and resident bytes,
    // to tell V8 keeping committed pages after a collection from what live objects hold.
    const heapSpaces = Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [space.space_name, { size: space.space_size, used: space.space_used_size, physical: space.physical_space_size }]),
    );
    process.send({
      type: 'memory',
      rssBytes: rss,
      heapUsedBytes: heapUsed,
      retainedBytes: heapUsed + external,
      arrayBuffersBytes: arrayBuffers,
      v8HeapBytes,
      heapSpaces,
      ...(() => {
        const sums = mappings();
        return sums ? { mallocHeapBytes: sums.heap, anonymousBytes: sums.anonymous, fileBytes: sums.files } : {};
      })(),
    });
  } else if (message.type === 'floor') {
    // The same-size floor of a row: its captured answer, kept as one Buffer made here, once.
    floors.set(message.row, { status: message.status, headers: message.headers, body: Buffer.from(message.body, 'base64') });
    process.send({ type: 'floor', row: message.row, bytes: floors.get(message.row).body.length });
  } else if (message.type === 'idle') {
    process.send({ type: 'idle', waitedMs: await idle() });
  } else if (message.type === 'stop') {
    await strapi.destroy();
    process.exit(0);
  }
});

process.send({
  type: 'ready',
  bootMs,
  cpuMs: (user + system) / 1000,
  rssBytes: process.memoryUsage().rss,
});
