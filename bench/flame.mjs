#!/usr/bin/env node
/**
 * `node bench/flame.mjs <file.cpuprofile> <out.svg> [title]`: an icicle graph (SVG) of a bench server's CPU profile,
 * the samples from its first request on (bench/lib/cpu-profile.mjs), and its top ten self times by function and
 * by package. `node bench/profile.mjs <path> --svg=<file>` profiles an endpoint and writes the graph in one go.
 */
import fs from 'fs';
import { flameSvg, selfTimes, top } from './lib/cpu-profile.mjs';

const [input, output, title] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: node bench/flame.mjs <file.cpuprofile> <out.svg> [title]');
const profile = JSON.parse(fs.readFileSync(input, 'utf8'));
fs.writeFileSync(output, flameSvg(profile, { title }));
const { byFunction, byPackage, total } = selfTimes(profile);
for (const [label, map] of [
  ['self time by package', byPackage],
  ['self time by function', byFunction],
]) {
  console.log(`\n${label}:`);
  for (const [key, share] of top(map, total, 10)) console.log(`${share.toFixed(1).padStart(5)}%  ${key}`);
}
console.log(`\nwrote ${output} (${total} samples)`);
