/**
 * A dependency loaded on its first use and kept, instead of at start: the libraries only some requests need
 * (WebAuthn, Markdown and HTML sanitizing, QR codes, TOTP, the image captcha) would otherwise add their load time and
 * memory to every boot (docs/architecture.md#loaded-on-first-use).
 *
 * The name is passed as a value, so the bundler leaves the call as it is. Strapi loads the plugin's CommonJS build
 * (the package's `require` export), whose own `require` resolves from the plugin; the ES module build, which has
 * none, resolves from the working directory (the app, where the plugin's dependencies are installed).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const load: NodeJS.Require = typeof require === 'function' ? require : createRequire(path.join(process.cwd(), 'index.js'));

/** What `make()` returns, made on the first call and kept. */
export const onFirstUse = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

/** The module `name`, loaded on the first call; `T` is what `require(name)` returns (no `default` wrapper). */
export const lazyRequire = <T>(name: string): (() => T) => onFirstUse(() => load(name) as T);
