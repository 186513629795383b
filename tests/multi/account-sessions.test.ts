/**
 * The account's sessions and sign-in alerts across two instances on one PostgreSQL database: the same session list
 * whichever instance answers, a session ended on one dead on the other, and one alert per new device however the
 * sign-ins are spread over the instances (concurrent ones included).
 */
import { createUser, type TestUser } from '../helpers/fixtures';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const AUTH = '/api/cms-plugin-bag/auth';
const ALERT = 'New sign-in to your account';

let ipCounter = 0;
const nextIp = () => `203.0.${(ipCounter += 1)}.7`;

describe('account sessions and sign-in alerts on two instances', () => {
  let smtp: TestSmtp;
  let instances: TwoInstances;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    smtp = await startSmtp();
    instances = await startTwoInstances({
      config: { rateLimit: { login: { interval: '1m', max: 1000 } } },
      env: { PROXY_TRUST: 'true', ...smtp.env },
    });
    ({ a, b } = instances);
  }, 240_000);
  afterAll(async () => {
    await instances?.stop();
    await smtp?.stop();
  });

  const login = async (on: Instance, user: TestUser, ip: string, ua: string) =>
    (await on.request().post(`${AUTH}/login`).set('X-Forwarded-For', ip).set('User-Agent', ua).send({ identifier: user.email, password: user.password }).expect(200))
      .body as { jwt: string; refreshToken: string };
  const sessions = async (on: Instance, jwt: string) =>
    (await on.request().get(`${AUTH}/sessions`).set('Authorization', `Bearer ${jwt}`).expect(200)).body.data as Array<Record<string, unknown>>;
  // A notice is sent before the sign-in answers, so by then it is in the server's list.
  const alerts = (user: TestUser) => smtp.mails.filter((mail) => mail.to.includes(user.email) && mail.subject === ALERT);

  it('lists the same sessions on either instance; one ended on B no longer refreshes on A', async () => {
    const user = await createUser(instances.setup.strapi);
    const onA = await login(a, user, nextIp(), 'Multi-A/1');
    const onB = await login(b, user, nextIp(), 'Multi-B/1');
    const fromA = await sessions(a, onA.jwt);
    const fromB = await sessions(b, onA.jwt);
    expect(fromB).toEqual(fromA);
    expect(fromA.map((s) => [s.userAgent, s.current])).toEqual([
      ['Multi-B/1', false],
      ['Multi-A/1', true],
    ]);
    expect((await sessions(a, onB.jwt)).find((s) => s.current)?.userAgent).toBe('Multi-B/1');

    const idOfA = fromA.find((s) => s.userAgent === 'Multi-A/1')!.id;
    await b.request().delete(`${AUTH}/sessions/${idOfA}`).set('Authorization', `Bearer ${onB.jwt}`).expect(200);
    const refused = await a.request().post(`${AUTH}/refresh-token`).send({ refreshToken: onA.refreshToken });
    expect(refused.body.error.message).toBe('Invalid refresh token');
    expect(await sessions(a, onB.jwt)).toHaveLength(1);
  });

  it('mails one alert per new device whichever instance signs in, concurrent sign-ins included', async () => {
    const user = await createUser(instances.setup.strapi);
    const ip = nextIp();
    await login(a, user, ip, 'Alert-Multi/1');
    expect(alerts(user)).toHaveLength(1);
    await login(b, user, ip, 'Alert-Multi/1');
    expect(alerts(user)).toHaveLength(1);

    const other = nextIp();
    await Promise.all([login(a, user, other, 'Alert-Multi/2'), login(b, user, other, 'Alert-Multi/2'), login(a, user, other, 'Alert-Multi/2')]);
    expect(alerts(user)).toHaveLength(2);
    expect(alerts(user)[1].text).toContain('Alert-Multi/2');
  });
});
