/** Strapi REST query strings, in the bracket notation Strapi's query parser reads. */

/** Strapi REST query parameters (`pagination`, `filters`, `sort`, `fields`, `populate`), serialized with brackets. */
export type Query = Record<string, unknown>;

/** `{ a: { b: [1, 2] } }` → `a[b][0]=1&a[b][1]=2`, the notation Strapi's query parser reads. */
export const toQueryString = (query: Query): string => {
  const parts: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object') {
      for (const [child, inner] of Object.entries(value)) walk(inner, `${key}[${child}]`);
      return;
    }
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [key, value] of Object.entries(query)) walk(value, key);
  return parts.join('&');
};

export const withQuery = (path: string, query?: Query) => {
  const qs = query ? toQueryString(query) : '';
  return qs ? `${path}?${qs}` : path;
};
