/**
 * Editors' redirects (`GET /api/bag/redirects`: front-end paths, docs/redirects.md), loaded at most once a minute and
 * answered by the server before a 404. Old slugs of articles and pages need no list: the detail read follows them.
 */
import type { Cms } from './cms';

let cache: { at: number; byPath: Map<string, { to: string | null; status: number }> } | undefined;
const TTL = 60_000;

export async function editorRedirect(client: Cms, path: string) {
  if (!cache || Date.now() - cache.at > TTL) {
    try {
      const { data } = await client.redirects();
      cache = { at: Date.now(), byPath: new Map(data.map((entry) => [entry.from, { to: entry.to, status: entry.status }])) };
    } catch {
      return undefined; // a 404 stays a 404 when the list cannot be read
    }
  }
  return cache.byPath.get(path) ?? cache.byPath.get(path.replace(/\/+$/, ''));
}
