/**
 * Preloaded into a bench server (`node --require`) by bench/stall-profile.mjs: records every turn of the event loop
 * longer than 8 ms as `[start, end, started, finished]`: its bounds in microseconds of the monotonic clock (the clock
 * of `process.hrtime` and of V8's CPU profiles), and how many requests the server began and finished answering in it.
 * The file `bench-turns-<pid>.json` in the temporary directory is rewritten after each long turn with those turns and
 * `{ requests, sameTurn }`: the requests finished so far, and those of them finished in the turn they began in (the
 * server is stopped by a signal, which runs no exit handler). A 1 ms timer measures the turns: a turn is the time
 * between two of its runs, as the event-loop delay the benchmark reads (`monitorEventLoopDelay`) is a timer's lateness.
 * The message `{ type: 'turns' }` is answered with the totals so far.
 */
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');

const file = path.join(os.tmpdir(), `bench-turns-${process.pid}.json`);
const longer = 8000;
const turns = [];
const totals = { requests: 0, sameTurn: 0 };
let turn = 0;
let started = 0;
let finished = 0;
let last = process.hrtime.bigint();

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function countRequests(event, request, response) {
  if (event === 'request') {
    const began = turn;
    started += 1;
    response.once('finish', () => {
      finished += 1;
      totals.requests += 1;
      if (turn === began) totals.sameTurn += 1;
    });
  }
  return emit.apply(this, arguments);
};

const tick = () => {
  let now = process.hrtime.bigint();
  if (Number(now - last) / 1000 > longer) {
    turns.push([Number(last / 1000n), Number(now / 1000n), started, finished]);
    fs.writeFileSync(file, JSON.stringify({ turns, ...totals }));
    // The write is the ticker's own time, not the turn's.
    now = process.hrtime.bigint();
  }
  turn += 1;
  started = 0;
  finished = 0;
  last = now;
  setTimeout(tick, 1).unref();
};
tick();

process.on('message', (message) => {
  if (message?.type === 'turns') process.send({ type: 'turns', ...totals });
});
