/**
 * Per-IP limits behind a trusted proxy (PROXY_TRUST → server.proxy.koa; PROXY_MAX_IPS → server.proxy.maxIpsCount):
 * an IPv6 client is counted by its /64, an IPv4-mapped address as its IPv4 address, and with maxIpsCount 1 the
 * addresses a client puts in X-Forwarded-For itself are not read.
 */
import { AUTH } from '../helpers/auth';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const MAX = 3;

describe('per-IP rate limits and client addresses', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({
      env: { PROXY_TRUST: 'true', PROXY_MAX_IPS: '1' },
      config: { rateLimit: { captchaImage: { interval: '1m', max: MAX } } },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const captchaFrom = (forwardedFor: string) => app.request().get(`${AUTH}/captcha-image`).set('X-Forwarded-For', forwardedFor);
  const use = async (forwardedFor: string[]) => {
    for (const address of forwardedFor) await captchaFrom(address).expect(200);
  };

  it('counts every address of one IPv6 /64 together, and another /64 apart', async () => {
    await use(['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:ffff:ffff:ffff:ffff']);
    expect((await captchaFrom('2001:0db8:00aa:0001:1234::9')).status).toBe(429);
    await captchaFrom('2001:db8:aa:2::1').expect(200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    await use(['192.0.2.10', '::ffff:192.0.2.10', '::ffff:c000:20a']);
    expect((await captchaFrom('192.0.2.10')).status).toBe(429);
    await captchaFrom('192.0.2.11').expect(200);
  });

  it('with maxIpsCount 1, reads only the address the proxy appended, not those the client forged before it', async () => {
    await use(['203.0.113.1, 198.51.100.20', '203.0.113.2, 198.51.100.20', '203.0.113.3, 198.51.100.20']);
    expect((await captchaFrom('203.0.113.4, 198.51.100.20')).status).toBe(429);
  });
});
