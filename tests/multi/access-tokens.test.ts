/**
 * An access token dies with its session on every instance (docs/accounts.md#access-tokens-end-with-their-session): two
 * instances on one PostgreSQL database, each having answered the jwt (so it knows it as good), then the session
 * ends on A and B refuses the jwt at its very next request, in both users-permissions `jwtManagement` modes.
 */
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';

const AUTH = '/api/cms-plugin-bag/auth';

const login = async (on: Instance, user: TestUser, ua: string) =>
  (await on.request().post(`${AUTH}/login`).set('User-Agent', ua).send({ identifier: user.email, password: user.password }).expect(200)).body as {
    jwt: string;
    refreshToken: string;
  };
const status = async (on: Instance, path: string, jwt: string) => (await on.request().get(path).set('Authorization', `Bearer ${jwt}`)).status;
/** The jwt on the host's and the plugin's `me`, twice each (the second answered from what the instance knows). */
const answers = async (on: Instance, jwt: string) => [
  await status(on, '/api/users/me', jwt),
  await status(on, `${AUTH}/me`, jwt),
  await status(on, '/api/users/me', jwt),
  await status(on, `${AUTH}/me`, jwt),
];
const OK = [200, 200, 200, 200];
const REFUSED = [401, 401, 401, 401];

describe.each([
  ['legacy-support', {}],
  ['refresh', { JWT_MANAGEMENT: 'refresh' }],
] as const)('access tokens on two instances (jwtManagement %s)', (mode, env) => {
  let instances: TwoInstances;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    instances = await startTwoInstances({ config: { rateLimit: { enabled: false }, account: { signInAlerts: false } }, env });
    ({ a, b } = instances);
  }, 240_000);
  afterAll(async () => {
    await instances?.stop();
  });

  it('a session revoked on A: its jwt is refused on B at once; the other session goes on', async () => {
    const user = await createUser(instances.setup.strapi);
    const first = await login(a, user, 'First/1');
    const second = await login(b, user, 'Second/1');
    expect(await answers(b, first.jwt)).toEqual(OK);
    expect(await answers(a, first.jwt)).toEqual(OK);

    const list = (await a.request().get(`${AUTH}/sessions`).set('Authorization', `Bearer ${second.jwt}`).expect(200)).body.data as Array<{ id: number; userAgent: string }>;
    const id = list.find((session) => session.userAgent === 'First/1')!.id;
    await a.request().delete(`${AUTH}/sessions/${id}`).set('Authorization', `Bearer ${second.jwt}`).expect(200);
    expect(await answers(b, first.jwt)).toEqual(REFUSED);
    expect(await answers(a, first.jwt)).toEqual(REFUSED);
    expect(await answers(b, second.jwt)).toEqual(OK);
  });

  it('a logout on A: its jwt is refused on B at once', async () => {
    const user = await createUser(instances.setup.strapi);
    const session = await login(a, user, 'Logout/1');
    expect(await answers(b, session.jwt)).toEqual(OK);
    await a.request().post(`${AUTH}/logout`).send({ refreshToken: session.refreshToken }).expect(200);
    expect(await answers(b, session.jwt)).toEqual(REFUSED);
  });

  it("a password change on A (the host's route): every earlier jwt is refused on B at once, the new one accepted", async () => {
    const user = await createUser(instances.setup.strapi);
    const session = await login(a, user, 'Change/1');
    // A jwt of the host's own: legacy, its jwt service; refresh mode, a host session (the plugin's login makes one).
    const own = mode === 'refresh' ? (await login(b, user, 'Own/1')).jwt : jwtFor(instances.setup.strapi, user);
    expect(await answers(b, session.jwt)).toEqual(OK);
    expect(await answers(b, own)).toEqual(OK);
    const changed = await a
      .request()
      .post('/api/auth/change-password')
      .set('Authorization', `Bearer ${own}`)
      .send({ currentPassword: user.password, password: 'Changed-pass-1', passwordConfirmation: 'Changed-pass-1' })
      .expect(200);
    expect(await answers(b, session.jwt)).toEqual(REFUSED);
    expect(await answers(b, own)).toEqual(REFUSED);
    expect(await answers(b, changed.body.jwt)).toEqual(OK);
  });
});
