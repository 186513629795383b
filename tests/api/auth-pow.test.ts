/** The proof-of-work captcha (`pow`): its challenge route, login and register with it, and type `any`, over HTTP. */
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import {
  AUTH,
  holdDeletesUntil,
  imageCaptcha,
  observeCaptchaTexts,
  powBits,
  powChallenge,
  restoreClock,
  setSettings,
  shiftClock,
  solvePowNonce,
} from '../helpers/auth';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const CAPTCHA_UID = 'plugin::cms-plugin-bag.captcha';
// Small enough that the tests solve a challenge in about a millisecond; the default (16) is in the README's configuration table.
const DIFFICULTY = 8;

describe('proof-of-work captcha', () => {
  let app: TestApp;
  let texts: ReturnType<typeof observeCaptchaTexts>;
  let user: TestUser;

  const post = (path: string, body: Record<string, unknown>) => app.request().post(`${AUTH}${path}`).send(body);
  const login = (body: Record<string, unknown>) => post('/login', { identifier: user.email, password: user.password, ...body });
  const expectError = (res: { status: number; body: any }, status: number, message: string) => {
    expect({ status: res.status, message: res.body?.error?.message, data: res.body?.data }).toEqual({ status, message, data: null });
  };
  /** A fresh challenge and a nonce solving it (`also`: a further condition on the nonce). */
  const solved = async (also?: (nonce: string) => boolean) => {
    const challenge = await powChallenge(app);
    return { ...challenge, nonce: solvePowNonce(challenge, also) };
  };

  beforeAll(async () => {
    app = await setupStrapi({ config: { rateLimit: { enabled: false }, captcha: { pow: { difficulty: DIFFICULTY } } } });
    texts = observeCaptchaTexts(app.strapi);
    user = await createUser(app.strapi);
  });
  afterAll(async () => {
    await app?.stop();
  });
  beforeEach(async () => {
    await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'pow' } }, register: { captcha: { enabled: true, type: 'pow' } } });
  });
  afterEach(() => restoreClock(app.strapi));

  describe('GET /auth/captcha (docs/accounts.md#captcha-rules)', () => {
    it('tells Public and Authenticated which kinds login and register take now, following the admin settings', async () => {
      const kinds = async (jwt?: string) => {
        const req = app.request().get(`${AUTH}/captcha`);
        return (await (jwt ? req.set('Authorization', `Bearer ${jwt}`) : req).expect(200)).body;
      };
      expect(await kinds()).toEqual({ login: ['pow'], register: ['pow'] });
      expect(await kinds(jwtFor(app.strapi, user))).toEqual({ login: ['pow'], register: ['pow'] });
      await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } }, register: { captcha: { enabled: true, type: 'any' } } });
      expect(await kinds()).toEqual({ login: [], register: ['image', 'pow', 'email'] });
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } }, register: { captcha: { enabled: true, type: 'email' } } });
      expect(await kinds()).toEqual({ login: ['image'], register: ['email'] });
    });
  });

  describe('GET /auth/captcha-pow', () => {
    it('answers { key, challenge, difficulty, algorithm, expiresIn } to Public and to Authenticated', async () => {
      const anonymous = await app.request().get(`${AUTH}/captcha-pow`).expect(200);
      expect(Object.keys(anonymous.body).sort()).toEqual(['algorithm', 'challenge', 'difficulty', 'expiresIn', 'key']);
      expect(anonymous.body).toEqual({
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
        challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
        difficulty: DIFFICULTY,
        algorithm: 'SHA-256',
        expiresIn: 300,
      });
      const authenticated = await app.request().get(`${AUTH}/captcha-pow`).set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).expect(200);
      expect(authenticated.body.key).not.toBe(anonymous.body.key);
      expect(authenticated.body.challenge).not.toBe(anonymous.body.challenge);
    });

    it('stores the challenge neither in clear nor with a solution: only its key, a keyed hash and the expiry', async () => {
      // Four digits at least: a nonce such as "0" is also the row's attempt count.
      const { key, challenge, nonce } = await solved((candidate) => candidate.length >= 4);
      const rows = await app.strapi.db.connection('bag_captchas').select('*').where({ lookup: key });
      expect(rows).toHaveLength(1);
      expect(rows[0].kind).toBe('pow');
      const values = Object.values(rows[0] as Record<string, unknown>).map((value) => String(value));
      for (const secret of [challenge, nonce]) expect(values).not.toContain(secret);
      expect(JSON.stringify(rows[0])).not.toContain(challenge);
      await login({ key, code: nonce }).expect(200);
      expect(await app.strapi.db.query(CAPTCHA_UID).count({ where: { lookup: key } })).toBe(0);
    });
  });

  describe('login with type pow', () => {
    it('requires key and code', async () => {
      const { key, nonce } = await solved();
      expectError(await login({}), 400, 'Captcha code is required');
      expectError(await login({ code: nonce }), 400, 'Captcha code is required');
      expectError(await login({ key }), 400, 'Captcha code is required');
      expectError(await login({ key: '', code: nonce }), 400, 'Captcha code is required');
    });

    it('refuses a wrong nonce, and the attempt consumes the challenge', async () => {
      const challenge = await powChallenge(app);
      const wrong = [...Array(1000).keys()].map(String).find((nonce) => powBits(challenge.challenge, nonce) < DIFFICULTY)!;
      expectError(await login({ key: challenge.key, code: wrong }), 400, 'Invalid or expired captcha code');
      expectError(await login({ key: challenge.key, code: solvePowNonce(challenge) }), 400, 'Invalid or expired captcha code');
    });

    it('accepts the right nonce once: a second use is refused', async () => {
      const { key, nonce } = await solved();
      const res = await login({ key, code: nonce }).expect(200);
      expect(res.body.jwt).toEqual(expect.any(String));
      expectError(await login({ key, code: nonce }), 400, 'Invalid or expired captcha code');
    });

    it('checks the captcha before the password', async () => {
      const { key, nonce } = await solved();
      expectError(await login({ key, code: `${nonce}x`, password: 'wrong' }), 400, 'Invalid or expired captcha code');
    });

    it('accepts a solution only for its own challenge', async () => {
      const [first, second] = await Promise.all([powChallenge(app), powChallenge(app)]);
      const nonce = solvePowNonce(first, (candidate) => powBits(second.challenge, candidate) < DIFFICULTY);
      expectError(await login({ key: second.key, code: nonce }), 400, 'Invalid or expired captcha code');
      await login({ key: first.key, code: nonce }).expect(200);
    });

    it('accepts only a decimal nonce, even one whose hash has the zero bits', async () => {
      const challenge = await powChallenge(app);
      const other = Array.from({ length: 1 << 16 }, (_, i) => `0x${i}`).find((nonce) => powBits(challenge.challenge, nonce) >= DIFFICULTY)!;
      expectError(await login({ key: challenge.key, code: other }), 400, 'Invalid or expired captcha code');
    });

    it('refuses an unknown key and a challenge past captcha.pow.expiresIn (5 minutes)', async () => {
      expectError(await login({ key: 'f'.repeat(32), code: '1' }), 400, 'Invalid or expired captcha code');
      const late = await solved();
      const inTime = await solved();
      shiftClock(app.strapi, 5 * 60 * 1000 - 5000);
      await login({ key: inTime.key, code: inTime.nonce }).expect(200);
      shiftClock(app.strapi, 5 * 60 * 1000 + 1000);
      expectError(await login({ key: late.key, code: late.nonce }), 400, 'Invalid or expired captcha code');
    });

    it('refuses a challenge issued under another difficulty, even with a solution good for the new one', async () => {
      const challenge = await powChallenge(app);
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      const config = await settings.get();
      const harder = { ...config, captcha: { ...config.captcha, pow: { ...config.captcha.pow, difficulty: DIFFICULTY + 1 } } };
      const spy = jest.spyOn(settings, 'get').mockResolvedValue(harder);
      try {
        expectError(await login({ key: challenge.key, code: solvePowNonce({ ...challenge, difficulty: DIFFICULTY + 1 }) }), 400, 'Invalid or expired captcha code');
        const fresh = await powChallenge(app);
        expect(fresh.difficulty).toBe(DIFFICULTY + 1);
        await login({ key: fresh.key, code: solvePowNonce(fresh) }).expect(200);
      } finally {
        spy.mockRestore();
      }
    });

    it('lets exactly one of two concurrent uses of one solution through', async () => {
      const { key, nonce } = await solved();
      const release = holdDeletesUntil(app.strapi, CAPTCHA_UID, 2);
      try {
        const results = await Promise.all([login({ key, code: nonce }), login({ key, code: nonce })]);
        expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
      } finally {
        release();
      }
    });

    it('does not take an image captcha, nor type image a proof-of-work one', async () => {
      const image = await imageCaptcha(app, texts);
      expectError(await login({ key: image.key, code: image.text }), 400, 'Invalid or expired captcha code');
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } } });
      const { key, nonce } = await solved();
      expectError(await login({ key, code: nonce }), 400, 'Invalid or expired captcha code');
      // Neither attempt consumed the other kind's captcha: each still works under its own type.
      await login({ key: image.key, code: image.text }).expect(200);
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'pow' } } });
      await login({ key, code: nonce }).expect(200);
    });
  });

  describe('type any, and register', () => {
    it('any: accepts a proof-of-work solution as well as an image captcha', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'any' } } });
      const { key, nonce } = await solved();
      await login({ key, code: nonce }).expect(200);
      expectError(await login({ key, code: nonce }), 400, 'Invalid or expired captcha code');
      const image = await imageCaptcha(app, texts);
      await login({ key: image.key, code: image.text }).expect(200);
    });

    it('registers with a proof-of-work solution', async () => {
      const { key, nonce } = await solved();
      const id = `pow${Date.now().toString(36)}`;
      const account = { username: id, email: `${id}@example.com`, password: `Pw-${id}-secret` };
      expectError(await post('/register', account), 400, 'Captcha code is required');
      const res = await post('/register', { ...account, key, code: nonce }).expect(200);
      expect(res.body.user.username).toBe(id);
    });
  });
});
