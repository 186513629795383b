/**
 * The view beacon (docs/starter.md#views, docs/readers.md#the-beacon). The starter's pages are kept by shared caches
 * (`s-maxage=60, stale-while-revalidate=300`): the server-side read that renders an article counts its reader, but a
 * reader served the kept copy reaches no server. So the page says when it was rendered, and the browser sends
 * `POST /api/bag/views` with `navigator.sendBeacon` only when the copy it got is older than FRESH_MS (a cache's): a
 * fresh render is never counted twice. The body is a JSON string, sent as `text/plain` (no CORS preflight).
 */
export const FRESH_MS = 10_000;

export function sendViewBeacon(element: HTMLElement, now = Date.now()) {
  const { api, slug, locale, rendered } = element.dataset;
  if (!api || !slug || !navigator.sendBeacon) return false;
  if (now - Number(rendered) < FRESH_MS) return false;
  return navigator.sendBeacon(`${api}/api/bag/views`, JSON.stringify({ type: 'article', slug, locale }));
}
