/**
 * The libraries only some requests need are not loaded with the plugin (docs/architecture.md#loaded-on-first-use):
 * loading the built server bundle, as Strapi does at start, leaves them out of the process; the API tests (passkeys,
 * mfa, comments, captcha) show that each still works once a request needs it. The same goes for the route shapes
 * (platform/shapes/lazy.ts): loading the bundle builds none of them, and one is built when it is first used.
 */
import { execFileSync } from 'child_process';
import path from 'path';
import { ROOT } from '../helpers/strapi';

const LAZY = ['@simplewebauthn/server', 'markdown-it', 'sanitize-html', 'qrcode', 'otpauth', 'svg-captcha'];

/** The packages of `node_modules` a fresh Node process holds after requiring `file`. */
const packagesLoadedBy = (file: string): string[] => {
  const script = `
    require(${JSON.stringify(file)});
    const names = new Set();
    for (const loaded of Object.keys(require.cache)) {
      const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(loaded);
      if (match) names.add(match[1]);
    }
    process.stdout.write(JSON.stringify([...names]));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[];
};

/**
 * In a fresh Node process: how many schemas were put in zod's registry by requiring `file` (a described shape is put
 * there when it is built), and after parsing a body with the `POST /auth/send-code` route's request shape. The host's
 * @strapi/utils, which shares the plugin's zod and describes schemas of its own, is loaded first, as Strapi does.
 */
const shapesBuiltBy = (file: string): { loaded: number; used: number; parsed: boolean } => {
  const script = `
    const { z } = require('zod/v4');
    require('@strapi/utils');
    let added = 0;
    const add = z.globalRegistry.add.bind(z.globalRegistry);
    z.globalRegistry.add = (...args) => { added += 1; return add(...args); };
    const bundle = require(${JSON.stringify(file)});
    const loaded = added;
    const route = (bundle.default ?? bundle).routes['content-api'].routes.find((r) => r.path === '/auth/send-code');
    const parsed = route.request.body['application/json'].safeParse({ identifier: 'someone@example.com' }).success;
    process.stdout.write(JSON.stringify({ loaded, used: added, parsed }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as {
    loaded: number;
    used: number;
    parsed: boolean;
  };
};

describe('dependencies loaded on first use', () => {
  it('are not loaded with the plugin', () => {
    const loaded = packagesLoadedBy(path.join(ROOT, 'dist', 'server', 'index.js'));
    // The check itself sees what a bundle loads: the plugin's own eager dependencies are there.
    expect(loaded).toEqual(expect.arrayContaining(['@strapi/utils', 'zod']));
    expect(LAZY.filter((name) => loaded.includes(name))).toEqual([]);
  });

  it('include the route shapes: none is built when the plugin loads, each on its first use', () => {
    const { loaded, used, parsed } = shapesBuiltBy(path.join(ROOT, 'dist', 'server', 'index.js'));
    expect(loaded).toBe(0);
    // The send-code body describes its field: building it registered that description.
    expect(used).toBeGreaterThan(0);
    expect(parsed).toBe(true);
  });
});
