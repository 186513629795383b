/**
 * Reading a V8 .cpuprofile (`node --cpu-prof`) of a bench server: the samples taken while serving requests (those
 * before the first request, the boot, are left out), self time by function and by module, and an icicle graph as
 * SVG (the root at the top, each frame as wide as the samples under it), written by hand from the profile's tree.
 * Used by bench/profile.mjs and bench/flame.mjs.
 */

/** The package a frame belongs to (`cms-plugin-bag` for the built plugin, `node` for Node's own code). */
export const where = (frame) => {
  const u = frame.url || '(native)';
  const m = u.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return m ? m[1] : u.includes('/dist/server/') ? 'cms-plugin-bag' : u.startsWith('node:') ? 'node' : u;
};

/** A frame's name in every table of the bench's profiles: `function package:line`. */
export const frameKey = (callFrame) =>
  `${callFrame.functionName || '(anonymous)'} ${where(callFrame)}:${callFrame.lineNumber + 1}`;

/** `{ ids, parentOf }`: a profile's nodes by id, and each node's parent id. */
export function profileTree(profile) {
  const ids = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  return { ids, parentOf };
}

/**
 * `{ ids, parentOf, samples }`: nodes by id, each node's parent, and the busy samples from the first request on.
 */
export function requestSamples(profile) {
  const { ids, parentOf } = profileTree(profile);
  const inRequest = (id) => {
    for (let at = id; at !== undefined; at = parentOf.get(at)) if (ids.get(at).callFrame.url.includes('/koa-compose/')) return true;
    return false;
  };
  const firstRequest = profile.samples.findIndex(inRequest);
  // Idle samples (the process waiting for the next request) are no cost: shares are of the busy time.
  const samples = profile.samples.slice(Math.max(0, firstRequest)).filter((id) => ids.get(id).callFrame.functionName !== '(idle)');
  return { ids, parentOf, samples };
}

/** Self time by function (`name package:line`) and by package, as counts of samples, and the total. */
export function selfTimes(profile) {
  const { ids, samples } = requestSamples(profile);
  const byFunction = new Map();
  const byPackage = new Map();
  for (const sample of samples) {
    const { callFrame } = ids.get(sample);
    const key = frameKey(callFrame);
    byFunction.set(key, (byFunction.get(key) ?? 0) + 1);
    byPackage.set(where(callFrame), (byPackage.get(where(callFrame)) ?? 0) + 1);
  }
  return { byFunction, byPackage, total: samples.length };
}

/** `[[key, share], …]`, the `n` largest, share in percent of `total`. */
export const top = (map, total, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, count]) => [key, (count / total) * 100]);

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A colour per kind of code: the plugin, Strapi, koa, the database, Node, the rest. */
const colour = (pkg) =>
  pkg === 'cms-plugin-bag'
    ? '#e4572e'
    : pkg.startsWith('@strapi/')
      ? '#4c6ef5'
      : /^koa|^@koa\//.test(pkg)
        ? '#f2a541'
        : /knex|sqlite|^pg/.test(pkg)
          ? '#2a9d8f'
          : pkg === 'node' || pkg === '(native)' || pkg === ''
            ? '#adb5bd'
            : '#9c89b8';

/**
 * An icicle graph of the request samples: the call tree merged by frame (function, package, line) under each parent,
 * each box as wide as its samples' share; boxes under `minShare` of the total are left out. `title`: the caption.
 */
export function flameSvg(profile, { title, width = 1200, rowHeight = 16, minShare = 0.002 } = {}) {
  const { ids, parentOf, samples } = requestSamples(profile);
  const root = { name: 'all requests', pkg: '', count: 0, children: new Map() };
  for (const sample of samples) {
    const stack = [];
    for (let at = sample; at !== undefined; at = parentOf.get(at)) {
      const { callFrame } = ids.get(at);
      if (callFrame.functionName === '(root)') continue;
      stack.push(callFrame);
    }
    root.count += 1;
    let node = root;
    for (const frame of stack.reverse()) {
      const pkg = where(frame);
      const name = frame.functionName || '(anonymous)';
      const key = `${name} ${pkg}:${frame.lineNumber + 1}`;
      let child = node.children.get(key);
      if (!child) {
        child = { name, pkg, key, count: 0, children: new Map() };
        node.children.set(key, child);
      }
      child.count += 1;
      node = child;
    }
  }
  const boxes = [];
  let depth = 0;
  const place = (node, x, level) => {
    const w = (node.count / root.count) * width;
    boxes.push({ node, x, y: level * rowHeight, w });
    depth = Math.max(depth, level + 1);
    let at = x;
    for (const child of [...node.children.values()].sort((a, b) => b.count - a.count)) {
      if (child.count / root.count >= minShare) place(child, at, level + 1);
      at += (child.count / root.count) * width;
    }
  };
  place(root, 0, 0);
  const top = 40;
  const height = top + depth * rowHeight + 30;
  const legend = [
    ['cms-plugin-bag', 'the plugin'],
    ['@strapi/x', 'Strapi'],
    ['koa', 'koa'],
    ['knex', 'database (knex, driver)'],
    ['node', 'Node and native'],
    ['other', 'other packages'],
  ];
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="4" y="16" font-size="13">${escape(title ?? 'CPU profile')} (${root.count} samples; width = share of samples, hover for figures)</text>`,
    ...legend.map(
      ([pkg, label], i) =>
        `<rect x="${4 + i * 190}" y="24" width="10" height="10" fill="${colour(pkg)}"/><text x="${18 + i * 190}" y="33">${label}</text>`,
    ),
  ];
  for (const { node, x, y, w } of boxes) {
    const share = ((node.count / root.count) * 100).toFixed(1);
    const label = node === root ? `all requests (${root.count} samples)` : `${node.name} ${node.pkg}`;
    out.push(
      `<g><title>${escape(node === root ? label : `${node.key}`)}: ${share}%</title>` +
        `<rect x="${x.toFixed(2)}" y="${top + y}" width="${Math.max(w - 0.5, 0.5).toFixed(2)}" height="${rowHeight - 1}" fill="${colour(node.pkg)}"/>` +
        (w > 40 ? `<text x="${(x + 3).toFixed(2)}" y="${top + y + 12}">${escape(label.slice(0, Math.floor((w - 6) / 6.6)))}</text>` : '') +
        '</g>',
    );
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
