/**
 * Preloaded into a bench server (`node --require`) by bench/stall-profile.mjs: records every turn of the event loop
 * longer than 8 ms as `[start, end]` in microseconds of the monotonic clock (the clock of `process.hrtime` and of
 * V8's CPU profiles), rewritten to `bench-turns-<pid>.json` in the temporary directory after each one (the server is
 * stopped by a signal, which runs no exit handler). A 1 ms timer measures the turns: a turn is the time between two
 * of its runs, as the event-loop delay the benchmark reads (`monitorEventLoopDelay`) is a timer's lateness.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const file = path.join(os.tmpdir(), `bench-turns-${process.pid}.json`);
const longer = 8000;
const turns = [];
let last = process.hrtime.bigint();

const tick = () => {
  let now = process.hrtime.bigint();
  if (Number(now - last) / 1000 > longer) {
    turns.push([Number(last / 1000n), Number(now / 1000n)]);
    fs.writeFileSync(file, JSON.stringify(turns));
    // The write is the ticker's own time, not the turn's.
    now = process.hrtime.bigint();
  }
  last = now;
  setTimeout(tick, 1).unref();
};
tick();
