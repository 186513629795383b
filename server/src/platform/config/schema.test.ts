import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { isDeepStrictEqual } from 'util';
import { parseConfig, toSeconds } from './schema';

describe('toSeconds', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['1h', 3600],
    ['30d', 2_592_000],
    ['45', 45],
    [' 2 m ', 120],
  ])('reads %j as %i seconds', (text, seconds) => {
    expect(toSeconds(text)).toBe(seconds);
  });

  it('passes a number through and refuses other units', () => {
    expect(toSeconds(7)).toBe(7);
    expect(() => toSeconds('1w')).toThrow('invalid duration 1w');
    expect(() => toSeconds('-5s')).toThrow('invalid duration');
  });
});

/** `a.b.c` of a parsed configuration. */
const at = (config: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], config);

/** The README's configuration table: every row naming one key with one default in backticks (or "unset"). */
const readmeDefaults = (): Array<[string, string]> => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
  const rows: Array<[string, string]> = [];
  for (const match of readme.matchAll(/^\| `([\w.]+)` \| [^|]*(?:\\\|[^|]*)* \| ([^|]+) \|/gm)) {
    const [, key, cell] = match;
    const value = cell.trim();
    if (value === 'unset' || /^`[^`]*`$/.test(value)) rows.push([key, value]);
  }
  return rows;
};

/** A default as the README writes it, as the parsed configuration holds it (durations in seconds). */
const documented = (key: string, cell: string, parsed: unknown): unknown => {
  if (cell === 'unset') return undefined;
  const literal = cell.slice(1, -1);
  if (literal === 'true' || literal === 'false') return literal === 'true';
  if (/^\d+$/.test(literal)) return Number(literal);
  if (literal.startsWith('[')) return JSON.parse(literal.replace(/'/g, '"'));
  const text = literal.replace(/^'(.*)'$/, '$1');
  return typeof parsed === 'number' ? toSeconds(text) : text;
};

describe('parseConfig: defaults', () => {
  const defaults = parseConfig({});

  it('gives every default the README configuration table states', () => {
    const rows = readmeDefaults();
    expect(rows.length).toBeGreaterThan(40);
    const mismatches = rows
      .map(([key, cell]) => ({ key, readme: documented(key, cell, at(defaults, key)), schema: at(defaults, key) }))
      .filter(({ readme, schema }) => !isDeepStrictEqual(readme, schema));
    expect(mismatches).toEqual([]);
  });

  it('turns duration defaults into seconds and keeps the default report reasons', () => {
    expect(defaults.auth.refreshToken.expiresIn).toBe(30 * 86400);
    expect(defaults.rateLimit.login).toEqual({ interval: 60, max: 10 });
    expect(defaults.comments.reports.reasons).toEqual(['spam', 'abuse', 'off-topic', 'other']);
  });

  it('keeps given values next to the defaults of their siblings', () => {
    const config = parseConfig({ rateLimit: { login: { max: 3 } }, cache: { http: { maxAge: '5m' } } });
    expect(config.rateLimit.login).toEqual({ interval: 60, max: 3 });
    expect(config.cache.http).toEqual({ maxAge: 300, sMaxAge: 0, staleWhileRevalidate: 0 });
  });
});

describe('parseConfig: a bad value names its key', () => {
  it.each<[string, unknown, string]>([
    ['an unknown key', { comments: { autoApprov: true } }, 'cms-plugin-bag: unknown key comments.autoApprov'],
    ['an unknown top-level key', { caching: {} }, 'cms-plugin-bag: unknown key caching'],
    ['a wrong type', { cache: { enabled: 'yes' } }, 'cms-plugin-bag: cache.enabled must be a boolean, got string'],
    ['a value out of range', { captcha: { pow: { difficulty: 33 } } }, 'captcha.pow.difficulty'],
    ['a captcha type', { login: { captcha: { type: 'recaptcha' } } }, 'login.captcha.type must be one of image, pow, email, any'],
    ['a malformed duration', { auth: { accessToken: { expiresIn: '2 weeks' } } }, 'auth.accessToken.expiresIn must be a duration such as 90s'],
    ['a zero duration', { rateLimit: { purgeInterval: '0s' } }, 'rateLimit.purgeInterval must be longer than 0 seconds'],
    ['a site URL', { site: { url: 'www.example.com' } }, 'site.url'],
    ['a short unsubscribe secret', { comments: { notifications: { secret: 'short' } } }, 'comments.notifications.secret'],
    ['an empty reasons list', { comments: { reports: { reasons: [] } } }, 'comments.reports.reasons'],
  ])('%s', (_, input, message) => {
    expect(() => parseConfig(input)).toThrow(message);
  });

  it('allows 0 where a duration may switch a thing off, and nowhere else', () => {
    expect(parseConfig({ cache: { http: { maxAge: 0 } } }).cache.http.maxAge).toBe(0);
    expect(() => parseConfig({ auth: { refreshToken: { expiresIn: 0 } } })).toThrow('auth.refreshToken.expiresIn');
  });

  it('names every bad key at once', () => {
    expect(() => parseConfig({ feeds: { size: 0 }, sitemap: { pageSize: 50001 } })).toThrow(/feeds\.size .*; sitemap\.pageSize /);
  });
});

describe('parseConfig: the RSA private key', () => {
  const pem = (bits: number) =>
    crypto.generateKeyPairSync('rsa', { modulusLength: bits }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('accepts a 2048-bit key', () => {
    const key = pem(2048);
    expect(parseConfig({ crypto: { rsa: { privateKey: key } } }).crypto.rsa.privateKey).toBe(key);
  });

  it('refuses text that is no key, a short key and a key of another type', () => {
    expect(() => parseConfig({ crypto: { rsa: { privateKey: 'not a key' } } })).toThrow('crypto.rsa.privateKey is not a valid PEM private key');
    expect(() => parseConfig({ crypto: { rsa: { privateKey: pem(1024) } } })).toThrow(
      'crypto.rsa.privateKey must be an RSA private key of at least 2048 bits'
    );
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => parseConfig({ crypto: { rsa: { privateKey: ec } } })).toThrow('must be an RSA private key');
  });
});
