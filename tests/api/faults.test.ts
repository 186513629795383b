/**
 * Faults on either database: the SMTP server unreachable or refusing, Strapi restarted on the same database (what
 * lives in the database survives; RSA ciphertexts only with a configured key).
 */
import { SMTPServer } from 'smtp-server';
import { createUser } from '../helpers/fixtures';
import { rsaPrivateKeyPem } from '../helpers/rsa';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const AUTH = '/api/cms-plugin-bag/auth';
const UTILS = '/api/cms-plugin-bag/utils';
const RSA_PRIVATE_KEY = rsaPrivateKeyPem();
const CONFIG = { login: { captcha: { enabled: true, type: 'email' } }, captcha: { email: { resendInterval: 1 } } };

/** An SMTP server on `port` that refuses every message with a 550. */
const startRefusingSmtp = async (port: number) => {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })));
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
};

describe('faults', () => {
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  describe('SMTP unreachable or refusing', () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await setupStrapi({ config: CONFIG, env: smtp.env });
    });
    afterAll(async () => {
      await app.stop();
    });

    const codeRows = () => app.strapi.db.query(`${PLUGIN}.captcha`).findMany({ where: { kind: 'email' } });

    it('answers 503 while the server is down, keeps no code, and works once it is back', async () => {
      const user = await createUser(app.strapi);
      await smtp.stop();
      const down = await app.request().post(`${AUTH}/send-code`).send({ identifier: user.email });
      await smtp.start();
      expect(down.status).toBe(503);
      expect(down.body.error.message).toBe('Email delivery failed, please try again later');
      expect(await codeRows()).toHaveLength(0);

      await app.request().post(`${AUTH}/send-code`).send({ identifier: user.email }).expect(200);
      const code = await smtp.nextCode(user.email);
      await app.request().post(`${AUTH}/login`).send({ identifier: user.email, password: user.password, code }).expect(200);
    });

    it('answers 503 when the server refuses the message, keeps no code, and works on the next attempt', async () => {
      const user = await createUser(app.strapi);
      await smtp.stop();
      const closeRefusing = await startRefusingSmtp(smtp.port);
      const refused = await app.request().post(`${AUTH}/send-code`).send({ identifier: user.email });
      await closeRefusing();
      await smtp.start();
      expect(refused.status).toBe(503);
      expect(refused.body.error.message).toBe('Email delivery failed, please try again later');
      expect(await codeRows()).toHaveLength(0);

      await app.request().post(`${AUTH}/send-code`).send({ identifier: user.email }).expect(200);
      const code = await smtp.nextCode(user.email);
      await app.request().post(`${AUTH}/login`).send({ identifier: user.email, password: user.password, code }).expect(200);
    });
  });

  describe('Strapi restarted on the same database', () => {
    const env = () => ({ RSA_PRIVATE_KEY, ...smtp.env });
    const limiter = (app: TestApp) =>
      app.strapi.plugin('cms-plugin-bag').service('rate-limit') as {
        hit(bucket: string, limit: { interval: number; max: number }): Promise<{ hits: number }>;
      };
    const grantPublic = async (app: TestApp, action: string) => {
      const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
      await app.strapi.db.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
    };

    it('keeps counters; RSA ciphertexts survive with the configured key and not without one', async () => {
      let app = await setupStrapi({ config: CONFIG, env: env() });
      let ciphertext = '';
      // A failed phase drops its database (stop); a finished one keeps it for the next start.
      let phaseDone = false;
      try {
        await limiter(app).hit('restart', { interval: 3600, max: 100 });
        await limiter(app).hit('restart', { interval: 3600, max: 100 });
        ciphertext = (await app.request().post(`${UTILS}/rsa/encrypt`).send({ data: 'kept' }).expect(200)).body.encrypted;
        await grantPublic(app, `${PLUGIN}.crypto.rsaDecrypt`);
        phaseDone = true;
      } finally {
        await app.stop({ keepDatabase: phaseDone });
      }

      app = await setupStrapi({ config: CONFIG, env: env(), databaseFile: app.databaseFile });
      phaseDone = false;
      try {
        expect((await limiter(app).hit('restart', { interval: 3600, max: 100 })).hits).toBe(3);
        await app.request().post(`${UTILS}/rsa/decrypt`).send({ data: ciphertext }).expect(200, { decrypted: 'kept' });
        phaseDone = true;
      } finally {
        await app.stop({ keepDatabase: phaseDone });
      }

      // Without a configured key the pair is new at every start: the old ciphertext no longer decrypts.
      app = await setupStrapi({ config: CONFIG, env: { ...env(), RSA_PRIVATE_KEY: undefined }, databaseFile: app.databaseFile });
      try {
        const res = await app.request().post(`${UTILS}/rsa/decrypt`).send({ data: ciphertext });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe('Decryption failed');
      } finally {
        await app.stop();
      }
    }, 120_000);

    it('keeps refresh tokens and pending e-mail codes', async () => {
      let app = await setupStrapi({ config: CONFIG, env: env() });
      const user = await createUser(app.strapi);
      const other = await createUser(app.strapi);
      let refreshToken = '';
      let pendingCode = '';
      let restarted = false;
      try {
        await app.request().post(`${AUTH}/send-code`).send({ identifier: user.email }).expect(200);
        const code = await smtp.nextCode(user.email);
        const login = await app.request().post(`${AUTH}/login`).send({ identifier: user.email, password: user.password, code }).expect(200);
        refreshToken = login.body.refreshToken;
        await app.request().post(`${AUTH}/send-code`).send({ identifier: other.email }).expect(200);
        pendingCode = await smtp.nextCode(other.email);
        restarted = true;
      } finally {
        await app.stop({ keepDatabase: restarted });
      }

      app = await setupStrapi({ config: CONFIG, env: env(), databaseFile: app.databaseFile });
      try {
        await app.request().post(`${AUTH}/refresh-token`).send({ refreshToken }).expect(200);
        await app.request().post(`${AUTH}/login`).send({ identifier: other.email, password: other.password, code: pendingCode }).expect(200);
      } finally {
        await app.stop();
      }
    }, 120_000);
  });
});
