/**
 * How long the client's `solvePow` (WebCrypto SHA-256) takes at the plugin's default difficulty, in this Node
 * process or, with `--browser`, in Debian's Chromium (headless, `CHROMIUM_PATH` or /usr/bin/chromium); with
 * `--native`, what a script pays instead: the same search with Node's native `crypto.createHash`, on one core.
 * Needs `npm run build`. `node bench/pow-solve.mjs [--browser | --native] [--runs=200] [--difficulty=<bits>]`
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const CLIENT = fileURLToPath(new URL('../dist/client/index.mjs', import.meta.url));
const plugin = require('../dist/server/index.js');
const defaults = (plugin.default ?? plugin).config.default;

const flag = (name, fallback) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.split('=')[1]) : fallback;
};
const runs = flag('runs', 200);
const difficulty = flag('difficulty', defaults.captcha.pow.difficulty);

/** Solves `runs` random challenges like the plugin's (64 hex characters); runs as it is in Node and in the page. */
async function measure(clientUrl, runs, difficulty) {
  const { solvePow } = await import(clientUrl);
  const times = [];
  let nonces = 0;
  for (let i = 0; i < runs; i += 1) {
    const challenge = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
    const start = performance.now();
    const { code } = await solvePow({ key: String(i), challenge, difficulty, algorithm: 'SHA-256', expiresIn: 300 });
    times.push(performance.now() - start);
    nonces += Number(code) + 1;
  }
  return { times, nonces };
}

/** The search a script would run: synchronous native SHA-256 until the digest has `difficulty` leading zero bits. */
function measureNative(runs, difficulty) {
  const solves = (digest) => {
    let bits = 0;
    for (const byte of digest) {
      if (byte !== 0) return bits + Math.clz32(byte) - 24 >= difficulty;
      bits += 8;
      if (bits >= difficulty) return true;
    }
    return true;
  };
  const times = [];
  let nonces = 0;
  for (let i = 0; i < runs; i += 1) {
    const challenge = randomBytes(32).toString('hex');
    const start = performance.now();
    let nonce = 0;
    while (!solves(createHash('sha256').update(`${challenge}:${nonce}`).digest())) nonce += 1;
    times.push(performance.now() - start);
    nonces += nonce + 1;
  }
  return { times, nonces };
}

/** Serves the client module and an empty page on localhost (a secure context, where `crypto.subtle` exists). */
async function inChromium() {
  const { chromium } = require('playwright-core');
  const server = http.createServer((req, res) => {
    if (req.url === '/client.mjs') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(fs.readFileSync(CLIENT));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>pow</title>');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://localhost:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    const source = `(${measure})(${JSON.stringify(`${base}/client.mjs`)}, ${runs}, ${difficulty})`;
    return { where: `Chromium ${browser.version()} (headless)`, ...(await page.evaluate(source)) };
  } finally {
    await browser.close();
    server.close();
  }
}

const result = process.argv.includes('--browser')
  ? await inChromium()
  : process.argv.includes('--native')
    ? { where: `Node ${process.version}, native crypto.createHash`, ...measureNative(runs, difficulty) }
    : { where: `Node ${process.version}`, ...(await measure(pathToFileURL(path.resolve(CLIENT)).href, runs, difficulty)) };

const times = [...result.times].sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
const total = times.reduce((sum, t) => sum + t, 0);
const ms = (t) => `${Math.round(t)} ms`;
console.log(`${result.where}, difficulty ${difficulty} bits, ${runs} challenges`);
console.log(`median ${ms(at(0.5))}, mean ${ms(total / runs)}, p90 ${ms(at(0.9))}, max ${ms(times[times.length - 1])}`);
console.log(`${Math.round((result.nonces / total) * 1000).toLocaleString('en')} nonces tried per second (mean ${Math.round(result.nonces / runs).toLocaleString('en')} per challenge)`);
