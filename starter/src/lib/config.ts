/**
 * The starter's configuration, from the environment only (read when the server starts):
 * - `STRAPI_URL`: where the server reaches Strapi (default http://localhost:1337);
 * - `PUBLIC_STRAPI_URL`: where browsers reach it (comments, search as you type, the account), STRAPI_URL by default;
 * - `SITE_URL`: this site's own public address, for canonical, hreflang and Open Graph links. Never taken from the
 *   request's Host header, which anyone can set.
 */
const trim = (value: string) => value.replace(/\/+$/, '');
const env = (name: string) => (typeof process !== 'undefined' ? process.env[name] : undefined) || undefined;

export const STRAPI_URL = trim(env('STRAPI_URL') ?? 'http://localhost:1337');
export const PUBLIC_STRAPI_URL = trim(env('PUBLIC_STRAPI_URL') ?? STRAPI_URL);
export const SITE_URL = trim(env('SITE_URL') ?? `http://localhost:${env('PORT') ?? '4321'}`);
export const SITE_NAME = env('SITE_NAME') ?? 'CMS Bag Blog';
export const PAGE_SIZE = 10;

/** An absolute URL on this site for a path of it. */
export const absolute = (path: string) => `${SITE_URL}${path === '/' ? '/' : path}`;

/** An absolute URL of a media file (Strapi's upload provider gives `/uploads/…` for local files). */
export const mediaUrl = (url: string) => (/^https?:\/\//.test(url) ? url : `${PUBLIC_STRAPI_URL}${url}`);
