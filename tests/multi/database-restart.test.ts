/**
 * PostgreSQL stopped and started (scripts/postgres.sh) while requests keep coming: answers during the outage are 5xx
 * in the host's error shape and bounded in time, Strapi serves again without a restart once the database is back, and
 * no counter increment is applied twice. The cluster stopped is this file's own (its own data directory and port),
 * so the test files Jest runs at the same time in other workers keep theirs.
 * Figures (requests sent, failed, increments, time to recover) are written to .tmp/database-restart.json.
 */
import { execFile } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { createDocument } from '../helpers/fixtures';
import { PLUGIN, ROOT, setupStrapi, type TestApp } from '../helpers/strapi';

const ACQUIRE_TIMEOUT_MS = 2000;
/** Longest any answer may take: the pool's acquire timeout plus headroom for a loaded 2-core machine. */
const MAX_ANSWER_MS = ACQUIRE_TIMEOUT_MS + 4000;
const OUTAGE_MS = 3000;
const WORKERS = 6;

const cluster = { PG_DIR: path.join(os.tmpdir(), `cms-plugin-bag-pg-restart-${process.pid}`), PGPORT: '' };

// Asynchronous, so the in-process server keeps answering while pg_ctl waits.
const postgres = (command: 'stop' | 'start') =>
  new Promise<void>((resolve, reject) =>
    execFile(path.join(ROOT, 'scripts', 'postgres.sh'), [command], { env: { ...process.env, ...cluster } }, (error, _stdout, stderr) =>
      error ? reject(new Error(`postgres.sh ${command}: ${stderr}`)) : resolve()
    )
  );

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

interface Outcome {
  status: number;
  ms: number;
  phase: 'before' | 'outage' | 'after';
  at: number;
  body: { data?: unknown; error?: { status?: number; name?: string; message?: string } };
}

const figures: Record<string, unknown> = {};

/**
 * Runs `WORKERS` loops of `send` through: a warm-up, PostgreSQL stopped for OUTAGE_MS, started again, and on until
 * every loop has had a success after the restart (bounded). Returns every outcome and when the server was back.
 */
async function underRestart(send: () => Promise<{ status: number; body: Outcome['body'] }>) {
  const outcomes: Outcome[] = [];
  let phase: Outcome['phase'] = 'before';
  let stopRequested = false;
  let backAt = 0;
  const recovered = new Set<number>();

  const worker = async (index: number) => {
    while (!stopRequested) {
      const started = Date.now();
      const { status, body } = await send();
      const outcome = { status, body, ms: Date.now() - started, phase, at: Date.now() };
      outcomes.push(outcome);
      if (phase === 'after' && status === 200 && outcome.at > backAt) recovered.add(index);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, index) => worker(index));

  await new Promise((resolve) => setTimeout(resolve, 1000));
  phase = 'outage';
  await postgres('stop');
  const stoppedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  await postgres('start');
  backAt = Date.now();
  phase = 'after';

  const deadline = Date.now() + 30_000;
  while (recovered.size < WORKERS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  const firstSuccess = outcomes.filter((o) => o.phase === 'after' && o.status === 200).map((o) => o.at);
  await new Promise((resolve) => setTimeout(resolve, 500));
  stopRequested = true;
  await Promise.all(workers);

  return {
    outcomes,
    allRecovered: recovered.size === WORKERS,
    outageMs: backAt - stoppedAt,
    recoverMs: firstSuccess.length ? Math.min(...firstSuccess) - backAt : Infinity,
  };
}

const expectHostErrorShape = (outcome: Outcome) => {
  expect(outcome.status).toBeGreaterThanOrEqual(500);
  expect(outcome.body).toEqual({
    data: null,
    error: expect.objectContaining({ status: outcome.status, name: expect.any(String), message: expect.any(String) }),
  });
};

describe('PostgreSQL restarted under load', () => {
  let app: TestApp;
  const runPort = process.env.DATABASE_PORT;

  beforeAll(async () => {
    cluster.PGPORT = String(await freePort());
    await postgres('start');
    // This file's databases are made, used and dropped on its own cluster (the run's template is on the other one).
    process.env.DATABASE_PORT = cluster.PGPORT;
    app = await setupStrapi({
      fresh: true,
      env: { DATABASE_CONNECTION_TIMEOUT: String(ACQUIRE_TIMEOUT_MS), DATABASE_CONNECT_TIMEOUT: '2000' },
    });
  }, 120_000);
  afterAll(async () => {
    fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, '.tmp', 'database-restart.json'), JSON.stringify(figures, null, 2));
    try {
      await app?.stop();
    } finally {
      // The next file Jest runs in this worker uses the run's cluster again.
      if (runPort === undefined) delete process.env.DATABASE_PORT;
      else process.env.DATABASE_PORT = runPort;
      await postgres('stop');
      fs.rmSync(cluster.PG_DIR, { recursive: true, force: true });
    }
  }, 120_000);

  it('answers 5xx in the host’s shape during the outage, within a bound, and serves again without a restart', async () => {
    const limiter = app.strapi.plugin('cms-plugin-bag').service('rate-limit') as {
      hit(bucket: string, limit: { interval: number; max: number }): Promise<{ hits: number }>;
    };
    const bucket = `restart-${crypto.randomBytes(3).toString('hex')}`;
    let hitsAttempted = 0;
    const hitsReturned: number[] = [];

    // Every request goes through the host's permission lookup (database) and counts one hit in a plugin counter.
    const run = await underRestart(async () => {
      hitsAttempted += 1;
      const counted = limiter.hit(bucket, { interval: 3600, max: 1_000_000 }).then(
        (result) => hitsReturned.push(result.hits),
        () => undefined
      );
      const res = await app.request().post('/api/cms-plugin-bag/utils/rsa/encrypt').send({ data: 'under load' });
      await counted;
      return { status: res.status, body: res.body };
    });

    const failed = run.outcomes.filter((o) => o.status !== 200);
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) expectHostErrorShape(outcome);
    expect(Math.max(...run.outcomes.map((o) => o.ms))).toBeLessThanOrEqual(MAX_ANSWER_MS);
    expect(run.allRecovered).toBe(true);

    // Each applied increment was seen once: returned counts are distinct, and the stored count lies between the
    // increments known to be applied and the ones attempted.
    expect(new Set(hitsReturned).size).toBe(hitsReturned.length);
    const [row] = await app.strapi.db.query(`${PLUGIN}.rate-limit`).findMany({});
    const stored = Number(row.hits);
    expect(stored).toBeGreaterThanOrEqual(hitsReturned.length);
    expect(stored).toBeLessThanOrEqual(hitsAttempted);

    Object.assign(figures, {
      permissionsAndCounters: {
        requestsSent: run.outcomes.length,
        requestsFailedDuringOutage: failed.length,
        failedStatuses: [...new Set(failed.map((o) => o.status))],
        slowestAnswerMs: Math.max(...run.outcomes.map((o) => o.ms)),
        outageMs: run.outageMs,
        timeToRecoverMs: run.recoverMs,
        counterHitsAttempted: hitsAttempted,
        counterHitsConfirmed: hitsReturned.length,
        counterStored: stored,
      },
    });
  }, 90_000);

  it('keeps article views exact through the outage: every 200 counted once, no increment applied twice', async () => {
    const slug = `restart-${crypto.randomBytes(3).toString('hex')}`;
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: slug, slug });

    const run = await underRestart(async () => {
      const res = await app.request().get(`/api/bag/articles/${slug}`);
      return { status: res.status, body: res.body };
    });

    const ok = run.outcomes.filter((o) => o.status === 200);
    const failed = run.outcomes.filter((o) => o.status !== 200);
    expect(failed.length).toBeGreaterThan(0);
    for (const outcome of failed) expectHostErrorShape(outcome);
    expect(Math.max(...run.outcomes.map((o) => o.ms))).toBeLessThanOrEqual(MAX_ANSWER_MS);
    expect(run.allRecovered).toBe(true);

    // The views each 200 reported are distinct (no two reads saw the same increment), and the stored count lies
    // between the answered reads and all reads sent (a read that failed after its increment may have counted).
    const reported = ok.map((o) => (o.body.data as { views: number }).views);
    expect(new Set(reported).size).toBe(reported.length);
    const rows = await app.strapi.db.query(`${PLUGIN}.article`).findMany({ where: { documentId: article.documentId } });
    for (const row of rows) {
      expect(Number(row.views)).toBeGreaterThanOrEqual(ok.length);
      expect(Number(row.views)).toBeLessThanOrEqual(run.outcomes.length);
    }

    Object.assign(figures, {
      articleViews: {
        requestsSent: run.outcomes.length,
        requestsAnswered200: ok.length,
        requestsFailedDuringOutage: failed.length,
        viewsStored: Number(rows[0].views),
        slowestAnswerMs: Math.max(...run.outcomes.map((o) => o.ms)),
        timeToRecoverMs: run.recoverMs,
      },
    });
  }, 90_000);
});
