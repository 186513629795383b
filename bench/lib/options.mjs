/**
 * The benchmark's command line: `--quick`, `--no-build`, `--duration=<s>`, `--connections=<n>`, `--only=<text>`,
 * and the settings and paths derived from it.
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
/** `--only=<text>`: measure only the endpoints whose name contains it (no boot figures; results in only.*). */
export const ONLY = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
export const selected = (name) => !ONLY || name.includes(ONLY);
export const DURATION = option('duration', QUICK ? 1 : 10);
export const CONNECTIONS = option('connections', 10);
export const BOOT_ROUNDS = QUICK ? 1 : 3;
export const STALL_SAMPLES = QUICK ? 2 : 5;
export const DEEP_SAMPLES = QUICK ? 5 : 50;
export const RESULTS = path.join(ROOT, 'bench', 'results');
export const RESULT_NAME = ONLY ? 'only' : QUICK ? 'quick' : 'latest';
export const TMP = path.join(PLAYGROUND, '.tmp');
export const log = (message) => console.log(`[bench] ${message}`);
