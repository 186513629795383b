/**
 * Measuring: one request checked (`probe`), load with autocannon (`measure`: warm-up, a timed or counted run, then
 * event-loop stalls sampled one request at a time), and the deepest allowed list query timed one at a time.
 *
 * A request is `{ path, method?, headers?, body?, check?, expectStatus?, sequence? }`: `expectStatus` (e.g. 304)
 * replaces "any 2xx" as a success; `sequence()` gives a new path for every request sent (cache misses: no two alike),
 * `path` then only names the row.
 */
import autocannon, { percentiles } from './load-generator.mjs';
import http from 'http';
import { cpuMs } from './cpu-compare.mjs';
import { CONNECTIONS, DEEP_SAMPLES, DURATION, STALL_SAMPLES } from './options.mjs';
import { DEEPEST_ALLOWED } from './scenarios.mjs';
import { ask } from './server-process.mjs';

/**
 * The deepest list query `content.maxRelationDepth` allows, one request at a time (`DEEP_SAMPLES` times): its median
 * and slowest. The host's REST (the bench server's comparator API) is then sent the same query as many times (`host`,
 * or `host.failed`): the target is absolute (< 50 ms), and the same query through the host, right after it, shows how
 * fast the machine was then (on this VM the same build measured 35 ms on a fresh server and 54 ms in a full run).
 */
export async function deepestAllowedQuery(server) {
  // One side after the other: in turns request by request, the host's garbage was collected during the plugin's
  // requests (46 ms instead of 35 on a fresh server).
  const plugin = await timeOneAtATime(server, DEEPEST_ALLOWED);
  if (plugin.failed) return plugin;
  return { ...plugin, host: await timeOneAtATime(server, DEEPEST_ALLOWED.replace('/api/bag/', '/api/host/')) };
}

/**
 * `path` sent once, then `DEEP_SAMPLES` times one at a time: its median and slowest, or `failed`; then sent once more
 * with the SQL recorded, and its `SELECT`s sent alone as many times (`database`: the bench server's `statements`), so
 * the row tells the database's part of the time from the rest.
 */
async function timeOneAtATime(server, path) {
  const first = await probe(server, { path });
  if (!first.ok) return { path, failed: first.error };
  const times = [];
  for (let i = 0; i < DEEP_SAMPLES; i += 1) {
    const began = process.hrtime.bigint();
    const result = await probe(server, { path });
    if (!result.ok) return { path, failed: result.error };
    times.push(Number(process.hrtime.bigint() - began) / 1e6);
  }
  await ask(server, { type: 'capture', on: true }, 'capturing');
  await probe(server, { path });
  await ask(server, { type: 'capture', on: false }, 'capture');
  const { type, ...database } = await ask(server, { type: 'statements', runs: DEEP_SAMPLES }, 'statements');
  return {
    path,
    samples: times.length,
    rows: first.body?.data?.length ?? 0,
    bytes: first.bytes,
    p50: percentiles(times).p50,
    max: Math.max(...times),
    database,
  };
}

export async function probe(server, request) {
  const response = await fetch(server.url + (request.sequence ? request.sequence() : request.path), {
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const headers = Object.fromEntries(response.headers);
  const expected = request.expectStatus ? response.status === request.expectStatus : response.status < 300;
  if (!expected) {
    const message = body?.error?.message ?? response.statusText;
    return {
      ok: false,
      error: `HTTP ${response.status} ${message}${request.expectStatus ? ` (want ${request.expectStatus})` : ''}`,
      body,
      headers,
    };
  }
  const problem = request.check?.(body ?? {}, headers);
  return {
    ok: !problem,
    error: problem ?? null,
    body,
    headers,
    status: response.status,
    bytes: Buffer.byteLength(text),
  };
}

/**
 * One answer as autocannon receives it (no `Accept-Encoding`, the raw bytes): `{ status, headers, body }` (a Buffer).
 */
export const capture = (server, request) =>
  new Promise((resolve, reject) => {
    const req = http.request(
      server.url + request.path,
      { method: request.method ?? 'GET', headers: request.headers },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });

/** Headers a floor does not copy: what the host's middlewares or Node set on every answer themselves. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * The same-size floor of a row: its answer captured once and registered with the server under `key`, with the headers
 * the plugin set (those `/_health` also gets, the host's middlewares', are left to the floor route's own middlewares);
 * returns the request for `GET /api/host/floor/<key>`, or `{ failed }`.
 */
export async function floorOf(server, key, request, health) {
  const answer = await capture(server, request);
  if (answer.status !== 200) return { failed: `capturing ${request.path}: HTTP ${answer.status}` };
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(
      ([name, value]) => !OWN_HEADERS.has(name) && !(name in health.headers && health.headers[name] === value),
    ),
  );
  const registered = await ask(server, { type: 'floor', row: key, status: 200, headers, body: answer.body.toString('base64') });
  return {
    path: `/api/host/floor/${key}`,
    bytes: registered.bytes,
    copiedHeaders: Object.keys(headers),
    check: (body, responseHeaders) =>
      responseHeaders.etag === answer.headers.etag ? null : `ETag ${responseHeaders.etag}, want ${answer.headers.etag}`,
  };
}

/**
 * A revalidation of `request`: its first answer's ETag sent back as If-None-Match, 304 expected. Without an ETag,
 * `{ failed }`.
 */
export async function revalidation(server, request) {
  const first = await probe(server, request);
  if (!first.ok) return { failed: `first request: ${first.error}` };
  const etag = first.headers.etag;
  if (!etag) return { failed: 'no ETag on the first response' };
  return { ...request, headers: { ...request.headers, 'if-none-match': etag }, expectStatus: 304, check: undefined };
}

/** `{ duration }` (seconds) or `{ amount }` (responses); the run ends only when every response it counts is in. */
export const cannon = (server, request, run) =>
  autocannon({
    url: server.url + request.path,
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
    connections: CONNECTIONS,
    timeout: 180,
    ...(request.sequence
      ? {
          requests: [
            {
              method: request.method ?? 'GET',
              headers: request.headers,
              body: request.body,
              setupRequest: (req) => ({ ...req, path: request.sequence() }),
            },
          ],
        }
      : {}),
    ...run,
  });

/** Responses that were not what the row expects: non-2xx, or anything but `expectStatus` when it is set. */
const unexpected = (request, result) =>
  request.expectStatus
    ? result.requests.total - Number(result.statusCodeStats?.[request.expectStatus]?.count ?? 0)
    : result.non2xx;

/**
 * The warm-up of a timed row: a fifth of its window (2 s in a full run), not measured. It was 20 requests: the first
 * row after a server's boot then had its p99 over on PostgreSQL (the list's hits: 7 ms at a p50 of 1 ms), and a row
 * measured in turns right after its reference's 10 s had its first slices slower than its last (the `?locale=en`
 * list's rose from 0.80× to 1.05× its reference's).
 */
const WARM_UP = { duration: DURATION / 5 };

/** Warms `request` up on `server` (`WARM_UP`), then waits for the server to finish what the warm-up left in flight. */
const warmUp = async (server, request) => {
  await cannon(server, request, WARM_UP);
  await ask(server, { type: 'idle' });
};

/**
 * One endpoint: probe once (a failure is reported, not measured), warm up, measure, then sample loop stalls.
 * A run abandons the requests still in flight at its end, and the server finishes them anyway; waiting for the
 * server to go idle keeps that work out of the next measurement. An endpoint too slow for a timed window (one
 * request, alone, takes more than a twentieth of it) is measured by count instead: two responses per connection,
 * after the probe as warm-up.
 */
export async function measure(server, request, { stalls = false } = {}) {
  const row = { path: request.path, method: request.method ?? 'GET' };
  const first = await probe(server, request);
  if (!first.ok) return { ...row, failed: first.error };
  // Timed on a second request: the first to a fresh server pays for compiling the code path.
  const began = Date.now();
  const second = await probe(server, request);
  if (!second.ok) return { ...row, failed: second.error };
  const byCount = { amount: CONNECTIONS * 2 };
  let result;
  if ((Date.now() - began) * 20 > DURATION * 1000) {
    result = await cannon(server, request, byCount);
    row.byCount = true;
  } else {
    await warmUp(server, request);
    await ask(server, { type: 'waits', start: true });
    result = await cannon(server, request, { duration: DURATION });
    Object.assign(row, coherenceOf((await ask(server, { type: 'waits' })).waits));
  }
  await ask(server, { type: 'idle' });
  Object.assign(row, {
    rps: result.requests.total / result.duration,
    ...percentiles(result.latenciesMs),
    requests: result.requests.total,
    seconds: result.duration,
    non2xx: unexpected(request, result),
    errors: result.errors + result.timeouts,
    bytes: first.bytes,
  });
  if (stalls) Object.assign(row, await longestStall(server, request));
  return row;
}

/**
 * How long a row's requests waited for the cache's versions (the coherence check's one SELECT, shared by the requests
 * of a turn), from the bench server's `waits`: `{ coherence: { reads, p50, p99 } }`, or nothing for a row that read
 * none (cache off, the host's rows).
 */
const coherenceOf = (waits) => (waits.length ? { coherence: { reads: waits.length, ...percentiles(waits) } } : {});

/**
 * One request at a time: the event loop's longest delay is then the longest synchronous stretch of one request, or a
 * pause of the garbage collector's (its longest pause over the same requests is kept beside it).
 */
async function longestStall(server, request) {
  await ask(server, { type: 'eld', reset: true });
  for (let i = 0; i < STALL_SAMPLES; i += 1) await probe(server, request);
  const { maxMs, longestGcMs } = await ask(server, { type: 'eld', reset: true });
  return { maxStallMs: maxMs, longestGcMs };
}

/**
 * A row and the row it is judged against, measured in turns on the same server: after a warm-up of each
 * (`WARM_UP`), `slices` slices of `DURATION / slices` seconds each, alternating (row, reference, row, …).
 * A drift of the machine's load over the seconds they take then weighs on both alike, where two rows measured one
 * after the other can differ by 10 % on a quiet machine. The row's req/s is all its slices' requests over their
 * seconds, its p50 and p99 those of all its slices' answers together; `reference` the same for the other row. A slow
 * row (one request longer than a slice over twice the connections) and its reference are measured by count, as
 * `measure` does.
 * `referenceServer`: the reference is sent to another server (the cache-miss row's, with the cache off; only one of
 * the two is loaded at a time). `beforeTurn(side)`: awaited before each turn of `'row'` or `'reference'` (the article
 * list's host runs without the plugin's indexes: dropped before its turns, put back before the plugin's).
 */
export async function measureInTurns(
  server,
  request,
  referenceRequest,
  { slices = DURATION >= 5 ? 5 : 1, referenceServer = server, stalls = false, beforeTurn = async () => {} } = {},
) {
  const row = { path: request.path, method: request.method ?? 'GET' };
  const on = (req) => (req === request ? server : referenceServer);
  for (const req of [request, referenceRequest]) {
    await beforeTurn(req === request ? 'row' : 'reference');
    const probed = await probe(on(req), req);
    if (!probed.ok) return { ...row, failed: `${req === request ? '' : 'its reference: '}${probed.error}` };
    if (req === request) row.bytes = probed.bytes;
  }
  await beforeTurn('row');
  const began = Date.now();
  await probe(server, request);
  // A slice must hold a few rounds of the connections' requests. At C connections a request shares the server with
  // the C - 1 others, so a row whose one request took more than a slice / 2C answered all of a slice's requests at its
  // end or none (the comments tree on PostgreSQL: 0 or 1 req/s a slice, a ratio of NaN or Infinity). Such a row is
  // measured by count instead (until 2026-12-06 only a row whose request took over DURATION / 20).
  if ((Date.now() - began) * 2 * CONNECTIONS > (DURATION / slices) * 1000) {
    const measuredRow = await measure(server, request, { stalls });
    await beforeTurn('reference');
    return { ...measuredRow, reference: await measure(referenceServer, referenceRequest) };
  }
  await warmUp(server, request);
  await beforeTurn('reference');
  await warmUp(referenceServer, referenceRequest);
  const runs = { row: [], reference: [] };
  for (let slice = 0; slice < slices; slice += 1) {
    for (const [name, req] of [['row', request], ['reference', referenceRequest]]) {
      await beforeTurn(name);
      const pid = on(req).child?.pid;
      const cpuBefore = pid ? cpuMs(pid) : undefined;
      await ask(on(req), { type: 'waits', start: true });
      const result = await cannon(on(req), req, { duration: DURATION / slices });
      const cpu = pid ? cpuMs(pid) - cpuBefore : undefined;
      const { waits } = await ask(on(req), { type: 'waits' });
      await ask(on(req), { type: 'idle' });
      runs[name].push({ result, cpu, waits, unexpected: unexpected(req, result) });
    }
  }
  const summary = (list, req) => {
    const requests = list.reduce((sum, { result }) => sum + result.requests.total, 0);
    const seconds = list.reduce((sum, { result }) => sum + result.duration, 0);
    // The largest of five slices' p99 would be about the 99.8th percentile of the row's requests.
    return {
      rps: requests / seconds,
      ...percentiles(list.flatMap(({ result }) => result.latenciesMs)),
      requests,
      seconds,
      non2xx: list.reduce((sum, run) => sum + run.unexpected, 0),
      errors: list.reduce((sum, { result }) => sum + result.errors + result.timeouts, 0),
      slices: list.length,
      // Not rounded to whole req/s: a slow row's slices answer a few requests each.
      sliceRps: list.map(({ result }) => Number((result.requests.total / result.duration).toFixed(2))),
      // The server's CPU time (user + system, 10 ms ticks) per answered request over the slices, in µs.
      cpuUsPerRequest: list.every(({ cpu }) => cpu !== undefined)
        ? (list.reduce((sum, { cpu }) => sum + cpu, 0) * 1000) / Math.max(requests, 1)
        : undefined,
      ...coherenceOf(list.flatMap(({ waits }) => waits)),
    };
  };
  if (stalls) {
    await beforeTurn('row');
    Object.assign(row, await longestStall(server, request));
  }
  return {
    ...row,
    ...summary(runs.row, request),
    reference: { path: referenceRequest.path, ...summary(runs.reference, referenceRequest) },
  };
}
