/**
 * Reporting: the targets judged from a run's results (`evaluate`) and the Markdown table written to
 * bench/results/<name>.md (`markdown`).
 */
import { BOOT_ROUNDS, CONNECTIONS, DURATION, QUICK } from './options.mjs';
import { THREAD_PAGE, THREAD_TARGET } from './scenarios.mjs';

export const fmt = (n, digits = 0) => (n === undefined || n === null || Number.isNaN(n) ? '–' : n.toFixed(digits));
const holds = (ok) => (ok === null ? 'n/a' : ok ? 'holds' : 'MISSED');

export function evaluate(results) {
  const targets = [];
  for (const pair of results.pairs) {
    const { bag, host, hostWithoutIndexes } = pair;
    const ratio = !bag.failed && !host.failed ? bag.rps / host.rps : null;
    pair.ratio = ratio;
    if (hostWithoutIndexes) {
      pair.ratioWithoutIndexes = !bag.failed && !hostWithoutIndexes.failed ? bag.rps / hostWithoutIndexes.rps : null;
    }
    const judged = hostWithoutIndexes ? pair.ratioWithoutIndexes : ratio;
    pair.judged = judged;
    targets.push({
      target: `${pair.name}: ≥ ${pair.target.toFixed(1)}× its host comparator${
        hostWithoutIndexes ? " without the plugin's indexes" : ''
      }`,
      value:
        judged === null
          ? `not measured (${bag.failed ?? (hostWithoutIndexes ?? host).failed})`
          : `${judged.toFixed(2)}×${hostWithoutIndexes && ratio !== null ? ` (${ratio.toFixed(2)}× the host sharing them)` : ''}`,
      ok: judged === null ? null : judged >= pair.target,
    });
    targets.push({
      target: `${pair.name}: p99 ≤ 3 × p50 at ${CONNECTIONS} connections`,
      value: bag.failed ? 'not measured' : `p50 ${fmt(bag.p50)} ms, p99 ${fmt(bag.p99)} ms`,
      ok: bag.failed ? null : bag.p99 <= 3 * Math.max(bag.p50, 1),
    });
  }
  const deep = results.deepQuery;
  if (deep) {
    targets.push({
      target: 'deepest list query content.maxRelationDepth allows: < 50 ms (median, one at a time)',
      value: deep.failed ?? `p50 ${fmt(deep.p50, 1)} ms, max ${fmt(deep.max, 1)} ms (${deep.rows} rows, ${deep.bytes} bytes)`,
      ok: deep.failed ? null : deep.p50 < 50,
    });
  }
  const tree = results.pairs.find((p) => p.name === 'comments tree')?.bag;
  const [page, replies] = results.threads ?? [];
  if (page) {
    const measured = page.failed || !tree || tree.failed ? null : page.rps / tree.rps;
    targets.push({
      target: `comments page (${THREAD_PAGE} roots): ≥ ${THREAD_TARGET}× the full tree's req/s`,
      value: measured === null ? `not measured (${page.failed ?? tree?.failed})` : `${measured.toFixed(1)}× (${fmt(page.rps)} vs ${fmt(tree.rps)} req/s)`,
      ok: measured === null ? null : measured >= THREAD_TARGET,
    });
  }
  for (const row of [page, replies].filter(Boolean)) {
    targets.push({
      target: `${row.name}: p99 ≤ 3 × p50 at ${CONNECTIONS} connections`,
      value: row.failed ? 'not measured' : `p50 ${fmt(row.p50)} ms, p99 ${fmt(row.p99)} ms`,
      ok: row.failed ? null : row.p99 <= 3 * Math.max(row.p50, 1),
    });
  }
  targets.push({
    target: 'comments tree: no event-loop stall over 50 ms',
    value: tree && !tree.failed ? `max ${fmt(tree.maxStallMs, 1)} ms` : 'not measured',
    ok: tree && !tree.failed ? tree.maxStallMs <= 50 : null,
  });
  const { boot } = results;
  if (boot) {
    const addedMs = boot.with.bootMs - boot.without.bootMs;
    const addedMb = (boot.with.rssBytes - boot.without.rssBytes) / 2 ** 20;
    const addedCpuMs = boot.with.cpuMs - boot.without.cpuMs;
    targets.push({
      target: 'plugin adds ≤ 300 ms to boot',
      value: `${fmt(addedMs)} ms wall, ${fmt(addedCpuMs)} ms CPU`,
      ok: addedMs <= 300,
    });
    targets.push({
      target: 'plugin adds ≤ 40 MB to RSS',
      value: `${fmt(addedMb, 1)} MB`,
      ok: addedMb <= 40,
    });
  }
  results.targets = targets;
}

export function markdown(results) {
  const lines = [];
  const { machine } = results;
  lines.push(`# Benchmark${QUICK ? ' (quick smoke run: small data, 1 s per endpoint)' : ''}`, '');
  lines.push(
    `${results.date} · ${machine.cpus}× ${machine.cpu} · ${machine.memoryGb} GB · Node ${machine.node} · ` +
      `load average at start ${machine.loadAverage} · ${CONNECTIONS} connections, ${DURATION} s per endpoint ` +
      `(by count, ${CONNECTIONS * 2} responses, where marked *) after ${CONNECTIONS * 2} warm-up requests · ` +
      'SQLite · NODE_ENV=production',
    '',
  );
  lines.push(
    `Data: ${results.counts.publishedArticles} published articles (+${results.counts.draftOnlyArticles} drafts), ` +
      `${results.counts.approvedComments} approved + ${results.counts.pendingComments} pending comments on one article, ` +
      `${results.counts.menuItems} menu items, ${results.counts.publishedPages} pages, ${results.counts.publishedBanners} banners ` +
      `(seeded in ${fmt(results.seedMs / 1000, 1)} s).`,
    '',
  );
  lines.push('| endpoint | req/s | p50 ms | p99 ms | max stall ms | vs host | target |');
  lines.push('|---|---:|---:|---:|---:|---:|---|');
  const cell = (row) =>
    row.failed
      ? `**failed:** ${row.failed} | – | – | –`
      : `${fmt(row.rps)} | ${fmt(row.p50)} | ${fmt(row.p99)} | ${row.maxStallMs === undefined ? '' : fmt(row.maxStallMs, 1)}`;
  const flags = (row) => {
    if (row.failed) return '';
    const count = row.byCount ? ' *' : '';
    return row.non2xx || row.errors ? `${count} (${row.non2xx} non-2xx, ${row.errors} errors)` : count;
  };
  const times = (ratio) => (ratio === null || ratio === undefined ? '–' : `**${ratio.toFixed(2)}×**`);
  for (const pair of results.pairs) {
    const ok = pair.judged === null ? 'n/a' : pair.judged >= pair.target ? 'holds' : 'MISSED';
    const versus = pair.hostWithoutIndexes
      ? `${times(pair.ratioWithoutIndexes)} / ${times(pair.ratio)}`
      : times(pair.ratio);
    lines.push(
      `| \`GET ${pair.bag.path}\`${flags(pair.bag)} | ${cell(pair.bag)} | ${versus} | ≥ ${pair.target.toFixed(1)}× ${ok} |`,
    );
    const hostPath = pair.host.path.split('?')[0];
    if (pair.hostWithoutIndexes) {
      const row = pair.hostWithoutIndexes;
      lines.push(`| ↳ host without the plugin's indexes: \`GET ${hostPath}\`${flags(row)} | ${cell(row)} | | |`);
    }
    lines.push(`| ↳ host: \`GET ${hostPath}\`${flags(pair.host)} | ${cell(pair.host)} | | |`);
  }
  for (const row of results.threads ?? []) {
    lines.push(`| ${row.name}: \`${row.method} ${row.path}\`${flags(row)} | ${cell(row)} | | |`);
  }
  for (const row of results.singles) {
    lines.push(`| ${row.name}: \`${row.method} ${row.path}\`${flags(row)} | ${cell(row)} | | |`);
  }
  if (results.pairs.some((pair) => pair.hostWithoutIndexes)) {
    lines.push(
      '',
      "Article list, *vs host*: the ratio to the host without the plugin's indexes (dropped for that measurement " +
        'and put back: the comparator the 2× target is argued from, the host sorting over a full table scan) / ' +
        'the ratio to the host sharing them.',
    );
  }
  lines.push('', 'Host comparator queries (full):', '');
  for (const pair of results.pairs) lines.push(`- ${pair.name}: \`${pair.host.path}\``);
  if (results.boot) {
    const { boot } = results;
    lines.push('', `## Boot (median of ${BOOT_ROUNDS}, process start → listening; RSS after boot)`, '');
    lines.push('| playground | boot ms (wall) | boot CPU ms | RSS MB |', '|---|---:|---:|---:|');
    for (const name of ['without', 'with']) {
      const b = boot[name];
      lines.push(`| ${name} the plugin | ${fmt(b.bootMs)} | ${fmt(b.cpuMs)} | ${fmt(b.rssBytes / 2 ** 20, 1)} |`);
    }
    lines.push(
      '',
      'Wall-clock boot time swings by seconds when other processes share the 2 cores; CPU time (user + system of ' +
        'the server process until it listens) is the steadier measure of what the plugin adds.',
    );
  }
  lines.push('', '## Targets', '', '| target | measured | |', '|---|---|---|');
  for (const t of results.targets) lines.push(`| ${t.target} | ${t.value} | ${holds(t.ok)} |`);
  if (results.plans) {
    lines.push('', '## Query plans: the host article list (`sort=isTop:desc,publishedAt:desc`, 25 per page)', '');
    lines.push(
      `Plugin indexes dropped for "before": ${results.plans.indexes.map((i) => `\`${i}\``).join(', ') || 'none found'}.`,
      '',
    );
    for (const q of results.plans.queries) {
      lines.push('```sql', q.sql, '```');
      lines.push(`before (${fmt(q.before.ms, 2)} ms/query):`, '```', ...q.before.plan, '```');
      lines.push(`after (${fmt(q.after.ms, 2)} ms/query):`, '```', ...q.after.plan, '```', '');
    }
  }
  return lines.join('\n') + '\n';
}

