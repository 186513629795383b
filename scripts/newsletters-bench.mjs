#!/usr/bin/env node
/**
 * Newsletter delivery benchmark (docs/newsletters.md#measured). Every row is a ratio to a comparator of the same run:
 *   (a) a send to N subscribers (default 100,000, `--subscribers=`) through a local SMTP sink: mails per second of the
 *       plugin (from the POST that starts the send to the last mail the sink accepted) over the floor's, nodemailer
 *       sending the same mails (the test send's, replayed) to the same sink in a bare loop, one after another, with
 *       the playground's own transport options (a connection per mail, no `pool`). Target ≥ 0.5.
 *   (b) RSS growth of the Strapi process during the send (the highest sample, every 200 ms from /proc) over the
 *       resting process (the median of 3 s of samples just before the send). Target ≤ 50 MB.
 *   (c) the one-click unsubscribe POST's p99 while the send runs over its p99 with no send, both paced at
 *       `--unsubscribe-rate` requests a second (default 10), each with a new token of another newsletter's subscriber,
 *       so the send's recipients stay the same. Target ≤ 2.
 *   (d) PostgreSQL only: a second playground process on the same database, both delivering one send: duplicates and
 *       misses (targets 0 and 0); then another send, the second process SIGKILLed once a third of the mails went
 *       out: misses (target 0) after its batch's lease ran out, and duplicates (at most one batch of it).
 *
 * Processes: this script (set-up, the floor's loop, the unsubscribe load, the RSS sampler), the SMTP sink
 * (scripts/lib/smtp-sink.mjs, a process of its own, so its CPU is neither Strapi's nor the floor's), and each
 * playground instance (playground/scripts/start-instance.js, as tests/multi boots them). The subscribers are written
 * with multi-row inserts by an in-process Strapi that is destroyed before the instances boot.
 *
 * Usage: npm run build && npm run build -w playground, then
 *   node scripts/newsletters-bench.mjs --db=sqlite [--subscribers=100000] [--unsubscribe-rate=10] [--out=file.json]
 *   export PGPORT=55493; scripts/postgres.sh start; eval "$(scripts/postgres.sh env)"
 *   node scripts/newsletters-bench.mjs --db=postgres [...]; scripts/postgres.sh stop
 */
import crypto from 'crypto';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { fork } from 'child_process';
import { performance } from 'perf_hooks';
import nodemailer from 'nodemailer';
import { benchEnv, loadApp, PLAYGROUND, ROOT } from '../bench/lib/app.mjs';
import { createDatabase, dropDatabase } from './lib/postgres-admin.js';

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
};
const DB = arg('db', 'sqlite');
const N = Number(arg('subscribers', 100_000));
const RATE = Number(arg('unsubscribe-rate', 10));
const BASELINE_SECONDS = Number(arg('baseline-seconds', 30));
const OUT = arg('out', null);
const postgres = DB === 'postgres';
if (!['sqlite', 'postgres'].includes(DB) || !(N > 0)) throw new Error('usage: --db=sqlite|postgres --subscribers=N');
if (postgres && !process.env.DATABASE_PORT) throw new Error('PostgreSQL: eval "$(scripts/postgres.sh env)" first');
/** Tokens of the other newsletter's subscribers, one per unsubscribe request: enough for both paced windows. */
const OTHERS = Math.max(2000, RATE * (BASELINE_SECONDS + 3600));
const SITE = 'https://www.example.com';
const P = 'plugin::cms-plugin-bag';
const loadAtStart = os.loadavg().map((x) => Number(x.toFixed(2)));
const log = (...args) => console.log(`[newsletters-bench ${DB}]`, ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------------
// The SMTP sink, a process of its own.
const sink = fork(path.join(ROOT, 'scripts', 'lib', 'smtp-sink.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const sinkAsk = (message, reply = message.type) =>
  new Promise((resolve) => {
    const on = (answer) => {
      if (answer.type !== reply) return;
      sink.off('message', on);
      resolve(answer);
    };
    sink.on('message', on);
    if (message) sink.send(message);
  });
const { port: smtpPort } = await sinkAsk(null, 'ready');

// ---------------------------------------------------------------------------------------------------------------
// The database and the environment every Strapi of the run shares (the same secrets: the unsubscribe tokens below).
const dbName = `newsletters_bench_${Date.now()}`;
const dbDir = postgres ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'newsletters-bench-'));
const env = {
  ...benchEnv(),
  ...(postgres ? { DATABASE_CLIENT: 'postgres', DATABASE_NAME: dbName } : { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: path.join(dbDir, 'data.db') }),
  CMS_BAG_CONFIG: JSON.stringify({ site: { url: SITE } }),
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(smtpPort),
  SMTP_IGNORE_TLS: 'true',
};
delete env.DATABASE_URL;
if (postgres) await createDatabase(dbName);
Object.assign(process.env, env, { PORT: '0' });

/** The unsubscribe token of a subscriber id, made as links.ts makes it (HMAC keyed from the jwtSecret). */
const hmacKey = crypto.createHash('sha256').update(`cms-plugin-bag:${env.JWT_SECRET}`).digest();
const tokenOf = (id) => `${id}.${crypto.createHmac('sha256', hmacKey).update(JSON.stringify(['newsletter-unsubscribe', String(id)])).digest('hex')}`;

// ---------------------------------------------------------------------------------------------------------------
// Set-up in this process: two newsletters, three published articles, N + OTHERS active subscribers (multi-row inserts).
let setupMs = performance.now();
const app = await loadApp({ withHostApi: false });
const newsletter = await app.documents(`${P}.newsletter`).create({ data: { name: 'Bench weekly', slug: 'bench-weekly' } });
const other = await app.documents(`${P}.newsletter`).create({ data: { name: 'Bench other', slug: 'bench-other' } });
const body = Array.from({ length: 12 }, (_, i) => `## Part ${i + 1}\n\nA paragraph of the newsletter's article, **some bold** and a [link](https://example.com/${i}), long enough to weigh what a real post weighs in a mail.`).join('\n\n');
const articles = [];
for (let i = 1; i <= 3; i += 1) {
  articles.push(
    await app.documents(`${P}.article`).create({ data: { title: `Bench article ${i}`, slug: `bench-article-${i}`, summary: 'What this issue is about, in one line.', content: body }, status: 'published' })
  );
}
const subscribers = app.db.metadata.get(`${P}.newsletter-subscriber`).tableName;
const knex = app.db.connection;
const insertRows = async (count, make) => {
  await knex.transaction(async (trx) => {
    for (let i = 0; i < count; i += 400) {
      const rows = [];
      for (let j = i; j < Math.min(count, i + 400); j += 1) rows.push(make(j));
      await trx(subscribers).insert(rows);
    }
  });
};
await insertRows(N, (i) => ({ newsletter: newsletter.documentId, email: `s${i}@bench.test`, locale: 'en', state: 'active' }));
await insertRows(OTHERS, (i) => ({ newsletter: other.documentId, email: `u${i}@bench.test`, locale: 'en', state: 'active' }));
const otherIds = (await knex(subscribers).where({ newsletter: other.documentId }).orderBy('id').select('id')).map((row) => Number(row.id));
await app.destroy();
setupMs = performance.now() - setupMs;
log(`set-up: ${N} subscribers (+${OTHERS} of another newsletter, for the unsubscribe requests) in ${(setupMs / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------------------------------------------------------
// Playground instances, each a process (playground/scripts/start-instance.js).
const startInstance = async (name) => {
  const child = fork(path.join(PLAYGROUND, 'scripts', 'start-instance.js'), [], {
    cwd: PLAYGROUND,
    env: { ...process.env, ...env, PORT: '0' },
    // e.g. NEWSLETTERS_BENCH_EXEC_ARGV='--cpu-prof --cpu-prof-dir=/tmp/prof': a profile of each instance.
    execArgv: (process.env.NEWSLETTERS_BENCH_EXEC_ARGV ?? '').split(' ').filter(Boolean),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const port = await new Promise((resolve, reject) => {
    child.on('message', (m) => m.type === 'ready' && resolve(m.port));
    child.once('exit', (code) => reject(new Error(`instance ${name} exited with ${code}:\n${output.slice(-3000)}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    name,
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => output.slice(-3000),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
};
const rssOf = (pid) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
};
const MB = (bytes) => Number((bytes / 2 ** 20).toFixed(1));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const a = await startInstance('A');
const json = async (instance, method, url, { token, data } = {}) => {
  const res = await fetch(instance.base + url, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    ...(data ? { body: JSON.stringify(data) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
};
const admin = (await json(a, 'POST', '/admin/register-admin', { data: { email: 'bench@example.com', password: 'Bench-password-1', firstname: 'Bench', lastname: 'Admin' } })).data.token;
const startSend = (instance, article) => json(instance, 'POST', `/cms-plugin-bag/newsletters/${newsletter.documentId}/sends`, { token: admin, data: { article: article.documentId } });
const sendState = async (instance, id) => (await json(instance, 'GET', `/cms-plugin-bag/sends/${id}`, { token: admin })).data;
const sinkStats = () => sinkAsk({ type: 'stats' });

/** Waits until the send is over (done or cancelled) and the sink has every mail it counts sent: the send's state. */
const sendOver = async (instance, id, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await sendState(instance, id);
    if (state.status === 'done' || state.status === 'cancelled') return state;
    if (Date.now() > deadline) throw new Error(`send ${id} still ${state.status} after ${timeoutMs} ms: ${JSON.stringify(state)}`);
    await sleep(1000);
  }
};

// The mail the floor replays: the plugin's own, from a test send (one mail, nothing recorded) parsed by the sink.
await sinkAsk({ type: 'capture' }, 'capturing');
const captured = sinkAsk(null, 'captured');
await json(a, 'POST', `/cms-plugin-bag/newsletters/${newsletter.documentId}/sends`, { token: admin, data: { article: articles[0].documentId, test: 'capture@bench.test' } });
const { mail } = await captured;
log(`the mail: ${mail.subject}, html ${mail.html.length} characters, text ${mail.text.length}, List-Id ${mail.headers['list-id']}`);

// ---------------------------------------------------------------------------------------------------------------
// (a) the floor: nodemailer, the playground's transport options (config/plugins.ts), the same mails, a bare loop.
const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 10_000 });
const unsubscribeOf = (i) => `http://127.0.0.1/api/bag/newsletters/unsubscribe?token=${tokenOf(i + 1)}`;
await sinkAsk({ type: 'reset', expected: N });
const floorStarted = Date.now();
for (let i = 0; i < N; i += 1) {
  const link = unsubscribeOf(i);
  await transport.sendMail({
    from: mail.from,
    replyTo: mail.replyTo,
    to: `s${i}@bench.test`,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'List-Id': { prepared: true, value: mail.headers['list-id'] } },
  });
}
const floorStats = await sinkStats();
const floor = { mails: floorStats.count, seconds: (floorStats.lastAt - floorStarted) / 1000 };
floor.mailsPerSecond = Number((floor.mails / floor.seconds).toFixed(2));
log(`floor: ${floor.mails} mails in ${floor.seconds.toFixed(1)} s = ${floor.mailsPerSecond} mails/s`);

// ---------------------------------------------------------------------------------------------------------------
// (c) the unsubscribe POST, paced: one request every 1/RATE s, each answered in its own time (an open loop).
let nextOther = 0;
const unsubscribeLoad = () => {
  const times = [];
  const failures = [];
  let running = true;
  const pending = new Set();
  const one = async () => {
    const token = tokenOf(otherIds[nextOther++ % otherIds.length]);
    const began = performance.now();
    try {
      const res = await fetch(`${a.base}/api/bag/newsletters/unsubscribe?token=${token}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      times.push(performance.now() - began);
    } catch (error) {
      failures.push(error.message);
    }
  };
  const loop = (async () => {
    const began = performance.now();
    for (let n = 0; running; n += 1) {
      const wait = began + (n * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      if (!running) break;
      const p = one();
      pending.add(p);
      p.finally(() => pending.delete(p));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await Promise.all(pending);
    times.sort((x, y) => x - y);
    return {
      requests: times.length,
      failures: failures.length,
      ...(failures.length ? { firstFailure: failures[0] } : {}),
      p50: Number(percentile(times, 50)?.toFixed(1)),
      p99: Number(percentile(times, 99)?.toFixed(1)),
      max: Number(times.at(-1)?.toFixed(1)),
    };
  };
};
// Warm the route (first requests compile code paths), then the window with no send.
await (async () => {
  const stop = unsubscribeLoad();
  await sleep(3000);
  await stop();
})();
const stopBaseline = unsubscribeLoad();
await sleep(BASELINE_SECONDS * 1000);
const unsubscribeIdle = await stopBaseline();
log(`unsubscribe, no send: ${JSON.stringify(unsubscribeIdle)}`);

// (b) the resting process: the median of 3 s of samples.
const resting = [];
for (let i = 0; i < 15; i += 1) {
  resting.push(rssOf(a.child.pid));
  await sleep(200);
}
const restingRss = median(resting);

// ---------------------------------------------------------------------------------------------------------------
// (a), (b), (c): the send, with the RSS sampler and the paced unsubscribe load running.
await sinkAsk({ type: 'reset', expected: N });
let peakRss = restingRss;
const rssSamples = [];
const sampler = setInterval(() => {
  const rss = rssOf(a.child.pid);
  rssSamples.push(rss);
  peakRss = Math.max(peakRss, rss);
}, 200);
const stopDuring = unsubscribeLoad();
const sendStarted = Date.now();
const send = (await startSend(a, articles[0])).data;
const final = await sendOver(a, send.id, Math.max(600_000, N * 500));
const unsubscribeSending = await stopDuring();
clearInterval(sampler);
const sendStats = await sinkStats();
const plugin = { mails: sendStats.count, seconds: (sendStats.lastAt - sendStarted) / 1000, state: final };
plugin.mailsPerSecond = Number((plugin.mails / plugin.seconds).toFixed(2));
log(`plugin: ${plugin.mails} mails in ${plugin.seconds.toFixed(1)} s = ${plugin.mailsPerSecond} mails/s; send ${JSON.stringify(final)}; duplicates ${sendStats.duplicates}, misses ${sendStats.misses}`);
log(`unsubscribe, during the send: ${JSON.stringify(unsubscribeSending)}`);
// The highest sample of each quarter of the send: growth that levels off (the heap sized for the load) or keeps on.
const quarters = [0, 1, 2, 3].map((q) => MB(Math.max(...rssSamples.slice(Math.floor((q * rssSamples.length) / 4), Math.floor(((q + 1) * rssSamples.length) / 4)))));
log(`RSS: resting ${MB(restingRss)} MB, peak during the send ${MB(peakRss)} MB; the highest of each quarter of the send: ${quarters.join(', ')} MB`);

const rows = {
  a: { what: 'mails/s, plugin / nodemailer bare loop', plugin: plugin.mailsPerSecond, floor: floor.mailsPerSecond, ratio: Number((plugin.mailsPerSecond / floor.mailsPerSecond).toFixed(2)), target: '>= 0.5' },
  b: { what: 'RSS growth during the send, MB', restingMb: MB(restingRss), peakMb: MB(peakRss), growthMb: MB(peakRss - restingRss), quartersMb: quarters, target: '<= 50' },
  c: { what: 'unsubscribe POST p99, during the send / no send', during: unsubscribeSending.p99, idle: unsubscribeIdle.p99, ratio: Number((unsubscribeSending.p99 / unsubscribeIdle.p99).toFixed(2)), target: '<= 2' },
  single: { duplicates: sendStats.duplicates, misses: sendStats.misses },
};
rows.a.met = rows.a.ratio >= 0.5;
rows.b.met = rows.b.growthMb <= 50;
rows.c.met = rows.c.ratio <= 2;

// ---------------------------------------------------------------------------------------------------------------
// (d) PostgreSQL: two instances on one send, then one of them killed mid-send.
if (postgres) {
  const b = await startInstance('B');
  try {
    await sinkAsk({ type: 'reset', expected: N });
    const twoStarted = Date.now();
    const shared = (await startSend(a, articles[1])).data;
    const sharedFinal = await sendOver(b, shared.id, Math.max(600_000, N * 500));
    const sharedStats = await sinkStats();
    const mailsPerSecond = Number((sharedStats.count / ((sharedStats.lastAt - twoStarted) / 1000)).toFixed(2));
    log(`two instances: ${JSON.stringify(sharedFinal)}; ${mailsPerSecond} mails/s; duplicates ${sharedStats.duplicates}, misses ${sharedStats.misses}`);

    await sinkAsk({ type: 'reset', expected: N });
    const killedStarted = Date.now();
    const killed = (await startSend(a, articles[2])).data;
    while ((await sinkStats()).count < N / 3) await sleep(100);
    await b.kill();
    const killedAt = Date.now();
    const afterKill = await sendOver(a, killed.id, Math.max(600_000, N * 500));
    const killedStats = await sinkStats();
    log(`one killed after ${((killedAt - killedStarted) / 1000).toFixed(1)} s: ${JSON.stringify(afterKill)}; duplicates ${killedStats.duplicates}, misses ${killedStats.misses}; done ${((killedStats.lastAt - killedAt) / 1000).toFixed(1)} s after the kill`);
    rows.d = {
      shared: { duplicates: sharedStats.duplicates, misses: sharedStats.misses, mailsPerSecond, state: sharedFinal },
      killed: { duplicates: killedStats.duplicates, misses: killedStats.misses, killedAfterMails: Math.ceil(N / 3), state: afterKill },
      met: sharedStats.duplicates === 0 && sharedStats.misses === 0 && killedStats.misses === 0,
    };
  } finally {
    await b.stop();
  }
}

const summary = { db: DB, subscribers: N, unsubscribeRate: RATE, baselineSeconds: BASELINE_SECONDS, setupMs: Math.round(setupMs), loadAverage: { start: loadAtStart, end: os.loadavg().map((x) => Number(x.toFixed(2))) }, floor, plugin, unsubscribeIdle, unsubscribeSending, rows, node: process.version, cpus: os.cpus().length };
log(JSON.stringify(rows, null, 2));
if (OUT) fs.writeFileSync(OUT, JSON.stringify(summary, null, 2));

await a.stop();
sink.send({ type: 'stop' });
transport.close();
if (postgres) await dropDatabase(dbName);
else fs.rmSync(dbDir, { recursive: true, force: true });
process.exit(0);
