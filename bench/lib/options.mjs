/**
 * The benchmark's command line: `--quick`, `--no-build`, `--duration=<s>`, `--connections=<n>`, `--only=<text>`,
 * `--db=sqlite|postgres`, `--discovery-articles=<n>`, `--scale[=<sizes>]`, and the settings and paths derived from it.
 */
import path from 'path';
import { ROOT, PLAYGROUND } from './app.mjs';

const args = process.argv.slice(2);
export const flag = (name) => args.includes(`--${name}`);
const option = (name, fallback) => {
  const found = args.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
export const QUICK = flag('quick');
/** `--scale` or `--scale=<sizes>`: the scale run instead (bench/lib/scale.mjs), e.g. `--scale=10000,100000`. */
export const SCALE = args.some((arg) => arg === '--scale' || arg.startsWith('--scale='));
/**
 * `--only=<text>`: measure only the endpoints whose name contains it (no boot figures; results in only.*).
 * `--only=boot` is the boot comparison alone: no seeding and no rows, results in boot.* (committed; with `--quick`,
 * one round, in only.*).
 */
export const ONLY = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
export const BOOT_ONLY = ONLY === 'boot';
export const selected = (name) => !ONLY || name.includes(ONLY);
export const DURATION = option('duration', QUICK ? 1 : 10);
export const CONNECTIONS = option('connections', 10);
export const BOOT_ROUNDS = QUICK ? 1 : 7;
export const STALL_SAMPLES = QUICK ? 2 : 5;
export const DEEP_SAMPLES = QUICK ? 5 : 50;
export const RESULTS = path.join(ROOT, 'bench', 'results');
/** `--db=postgres`: seed and serve from PostgreSQL (the connection from scripts/postgres.sh env); default SQLite. */
export const DB = args.find((arg) => arg.startsWith('--db='))?.slice('--db='.length) ?? 'sqlite';
if (!['sqlite', 'postgres'].includes(DB)) throw new Error(`--db=${DB}: expected sqlite or postgres`);
/** Distinct URLs requested for the cache's memory bound (RSS row), and the bound set for it. */
export const RSS_URLS = QUICK ? 500 : 10000;
export const RSS_MAX_BYTES = 16 * 2 ** 20;
/**
 * The small-entries row: `cache.maxBytes` for it, and enough distinct small answers (a search with no match, ~570
 * bytes counted each) to fill that bound one and a half times over.
 */
export const SMALL_MAX_BYTES = QUICK ? 2 ** 20 : 16 * 2 ** 20;
export const SMALL_URLS = Math.ceil((1.5 * SMALL_MAX_BYTES) / 570);
/** Published articles of the discovery rows' own database (100,000 by default), and seconds per search scenario. */
export const DISCOVERY_ARTICLES = option('discovery-articles', QUICK ? 2000 : 100_000);
export const DISCOVERY_SECONDS = QUICK ? 1 : DURATION;
export const RESULT_NAME = `${BOOT_ONLY && !QUICK ? 'boot' : ONLY ? 'only' : QUICK ? 'quick' : 'latest'}${DB === 'postgres' ? '-postgres' : ''}`;
export const TMP = path.join(PLAYGROUND, '.tmp');
export const log = (message) => console.log(`[bench] ${message}`);
