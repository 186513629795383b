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
 */
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

/** autocannon(options), refusing the options that read the bodies this module does not keep. */
export default function loadGenerator(options) {
  const reading = BODY_OPTIONS.filter((name) => options[name] !== undefined);
  if (options.requests?.some((request) => request.onResponse)) reading.push('onResponse');
  if (!keeping && reading.length > 0) {
    throw new Error(`${reading.join(', ')}: the load generator keeps no bodies (keepBodies(true))`);
  }
  return autocannon(options);
}

/** autocannon's own sum of runs made with `skipAggregateResult` (their latency histograms merged). */
export const { aggregateResult } = autocannon;
