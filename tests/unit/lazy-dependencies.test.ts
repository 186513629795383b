/**
 * The libraries only some requests need are not loaded with the plugin (docs/architecture.md#loaded-on-first-use):
 * loading the built server bundle, as Strapi does at start, leaves them out of the process; the API tests (passkeys,
 * mfa, comments, captcha) show that each still works once a request needs it.
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

describe('dependencies loaded on first use', () => {
  it('are not loaded with the plugin', () => {
    const loaded = packagesLoadedBy(path.join(ROOT, 'dist', 'server', 'index.js'));
    // The check itself sees what a bundle loads: the plugin's own eager dependencies are there.
    expect(loaded).toEqual(expect.arrayContaining(['@strapi/utils', 'zod']));
    expect(LAZY.filter((name) => loaded.includes(name))).toEqual([]);
  });
});
