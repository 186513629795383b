/**
 * What bench/comment-cpu.mjs and bench/hit-cpu.mjs share: a server process's CPU time from /proc (also user and
 * system apart, for bench/locale-cpu.mjs), rounds alternating between checkouts, and the Markdown table of each
 * row's median per checkout.
 */
import fs from 'fs';
import path from 'path';

/** User and system CPU time of a process, in ms (clock ticks of 10 ms). */
export const cpuTimes = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
};

/** User + system CPU time of a process, in ms. */
export const cpuMs = (pid) => {
  const { user, system } = cpuTimes(pid);
  return user + system;
};

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `measure(checkout)` for each checkout, `rounds` times, alternating; prints the table and returns the runs. */
export async function compareCheckouts(checkouts, rounds, measure, digits) {
  const runs = new Map(checkouts.map((checkout) => [checkout, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const checkout of checkouts) runs.get(checkout).push(await measure(checkout));
  }
  const names = Object.keys(runs.get(checkouts[0])[0]);
  console.log(`| row (server CPU ms per request, median of ${rounds}) | ${checkouts.map((c) => path.basename(c)).join(' | ')} |`);
  console.log(`|---|${checkouts.map(() => '---:').join('|')}|`);
  for (const name of names) {
    const base = median(runs.get(checkouts[0]).map((r) => r[name]));
    const cells = checkouts.map((checkout, i) => {
      const value = median(runs.get(checkout).map((r) => r[name]));
      return i === 0 ? value.toFixed(digits) : `${value.toFixed(digits)} (this checkout ${base >= value ? '+' : ''}${((base / value - 1) * 100).toFixed(0)}%)`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  return runs;
}
