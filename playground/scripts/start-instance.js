#!/usr/bin/env node
/**
 * Starts one playground instance from its compiled output (playground/dist), configured by the environment only:
 * how tests/multi runs several Strapi processes on one database. `node playground/scripts/start-instance.js`.
 *
 * When forked with an IPC channel (by a test), it reports `{ type: 'ready', port }` and, as a test seam across
 * processes, the text of each image captcha it draws (`{ type: 'captcha', text }`): a test cannot spy inside another
 * process, and the text is nowhere else outside that process (the database holds only its hash). Started without
 * IPC — every other way — the seam does not exist.
 */
const path = require('path');
const { createStrapi } = require('@strapi/strapi');

const appDir = path.resolve(__dirname, '..');

async function main() {
  const strapi = createStrapi({ appDir, distDir: path.join(appDir, 'dist') });
  await strapi.load();

  if (process.send) {
    const captcha = strapi.plugin('cms-plugin-bag').service('captcha');
    if (captcha && typeof captcha.generateText === 'function') {
      const generateText = captcha.generateText.bind(captcha);
      captcha.generateText = (...args) => {
        const text = generateText(...args);
        process.send({ type: 'captcha', text });
        return text;
      };
    }
  }

  await strapi.listen();
  const address = strapi.server.httpServer.address();
  if (process.send) process.send({ type: 'ready', port: address.port });
  // SIGTERM / SIGINT: createStrapi already destroys Strapi and then exits. A second handler here would call destroy
  // again, which throws at once ("already been called") and exited before the first destroy had finished (e.g. while
  // the plugin waits for notification mails under way).
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
