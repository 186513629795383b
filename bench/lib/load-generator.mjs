/**
 * autocannon as the benchmark drives it: without keeping the bodies of the answers.
 *
 * autocannon's HTTP client appends every chunk of every answer to a string (`body += chunk`,
 * lib/pipelinedRequestsQueue.js), for checks the benchmark never asks it for (`verifyBody`, `expectBody`, a request's
 * `onResponse`). Decoding is cheap for ASCII text and not for text with other characters: the French article list
 * (100 bytes of `é` in 77,912) cost the load generator 131 µs of CPU per answer against 54 µs for the English list,
 * on the two cores it shares with the server, and its answers then came less bunched. In one measurement the French
 * list went from 0.84× the list without `locale` to 1.01× once the client kept no body; SQLite's full run still
 * measured it under its target (docs/benchmark.md, History, 2026-11-27 afternoon).
 * `keepBodies(true)` restores autocannon's own behaviour (bench/locale-cpu.mjs `--keep-bodies` measures both).
 *
 * Nor with the small heap V8 starts a process with (`LOAD_GENERATOR_HEAP`, `withLoadGeneratorHeap()`).
 */
import { spawnSync } from 'child_process';
import { createRequire } from 'module';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const Queue = require('autocannon/lib/pipelinedRequestsQueue.js');
const addBody = Queue.prototype.addBody;
if (typeof addBody !== 'function') {
  throw new Error('autocannon has no PipelinedRequestsQueue#addBody: see bench/lib/load-generator.mjs');
}
let keeping = false;
Queue.prototype.addBody = function addBodyWhenKept(data) {
  if (keeping) addBody.call(this, data);
};

/** Whether autocannon keeps the answers' bodies (its own default); off in the benchmark. */
export const keepBodies = (keep) => {
  keeping = keep;
};

const BODY_OPTIONS = ['verifyBody', 'expectBody'];

/**
 * autocannon(options), refusing the options that read the bodies this module does not keep. Its result also has
 * `latenciesMs`: every answer's time as autocannon took it (`process.hrtime`, in ms with its fractions), in the order
 * they came. autocannon's own histogram keeps whole milliseconds, each time rounded down: a p50 of 2.9 ms read 2 and a
 * p99 of 8.4 ms read 8, "4.0×" for a spread of 2.9×. Cached rows answer in 1 to 4 ms at 10 connections, where that
 * rounding alone could put a row over its p99 ≤ 3 × p50 target (`percentiles` reads these instead).
 */
export default async function loadGenerator(options) {
  const reading = BODY_OPTIONS.filter((name) => options[name] !== undefined);
  if (options.requests?.some((request) => request.onResponse)) reading.push('onResponse');
  if (!keeping && reading.length > 0) {
    throw new Error(`${reading.join(', ')}: the load generator keeps no bodies (keepBodies(true))`);
  }
  const latenciesMs = [];
  const run = autocannon(options);
  // The event autocannon records its histogram's value from, for every answer, whatever its status.
  const onResponse = (client, status, bytes, ms) => latenciesMs.push(ms);
  run.on('response', onResponse);
  const result = await run;
  run.off('response', onResponse);
  return Object.assign(result, { latenciesMs });
}

/** The p50 and p99 of answers' times (`latenciesMs` of one run or several, concatenated): nearest rank, in ms. */
export function percentiles(latenciesMs) {
  if (latenciesMs.length === 0) return { p50: undefined, p99: undefined };
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (percent) => sorted[Math.max(Math.ceil((percent / 100) * sorted.length) - 1, 0)];
  return { p50: at(50), p99: at(99) };
}

/**
 * The load generator's heap. V8 starts a process with a heap of a few MB and grows it as what survives grows. A load
 * generator keeps little and allocates much (a Buffer for every read of a socket), so its heap stayed small, and
 * reading answers of 77 KB and more at thousands a second it ran a full collection every 40 ms: 90 to 326 in a row's
 * 10 s, 0.4 to 1.2 s of pauses. The row's p99 was then the generator's: 9 to 11 ms at a p50 of 1 ms, for a cache hit
 * and its same-size floor alike. Started with a heap of 128 MB it ran none to two (docs/benchmark.md, History,
 * 2026-11-28). The flag is the generator's own: the servers it forks start as a site's do (server-process.mjs).
 */
export const LOAD_GENERATOR_HEAP = '--initial-heap-size=128';

/** Runs the calling script again with `LOAD_GENERATOR_HEAP` when it was started without it, and exits as it did. */
export function withLoadGeneratorHeap() {
  if (process.execArgv.includes(LOAD_GENERATOR_HEAP)) return;
  const again = spawnSync(process.execPath, [LOAD_GENERATOR_HEAP, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(again.status ?? 1);
}
