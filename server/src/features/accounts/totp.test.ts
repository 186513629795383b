import crypto from 'crypto';
import { TOTP } from 'otpauth';
import { TOTP_PERIOD, newTotpSecret, totpEnrolment, totpStep } from './totp';

/** The code an authenticator app shows for `secret` at `at` (ms), RFC 6238 with the plugin's parameters. */
const appCode = (secret: string, at: number) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD }).generate({ timestamp: at });

describe('TOTP (docs/accounts.md#second-factors-totp-and-recovery-codes)', () => {
  // Fixed secrets and time, so the codes compared are known to differ.
  const secret = newTotpSecret(Buffer.from('a fixed secret, 20 b'));
  const other = newTotpSecret(Buffer.from('another secret, 20 b'));
  const now = Date.parse('2026-05-06T07:08:09.000Z');
  const step = Math.floor(now / 1000 / TOTP_PERIOD);

  it('a new secret is 160 bits in base32, from the random bytes given', () => {
    expect(newTotpSecret(crypto.randomBytes(20))).toMatch(/^[A-Z2-7]{32}$/);
    expect(secret).toBe('MEQGM2LYMVSCA43FMNZGK5BMEAZDAIDC');
    const bytes = Buffer.alloc(20, 7);
    expect(newTotpSecret(bytes)).toBe(newTotpSecret(Buffer.alloc(20, 7)));
    expect(newTotpSecret(bytes)).not.toBe(newTotpSecret(Buffer.alloc(20, 8)));
  });

  it("accepts the app's code of this step, and of one step before or after, naming the step", () => {
    expect(totpStep(secret, appCode(secret, now), now)).toBe(step);
    expect(totpStep(secret, appCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(secret, appCode(secret, now + 30_000), now)).toBe(step + 1);
  });

  it('refuses a code two steps away, a code of another secret, and anything but six digits', () => {
    const current = appCode(secret, now);
    expect(totpStep(secret, appCode(secret, now - 60_000), now)).toBeUndefined();
    expect(totpStep(secret, appCode(secret, now + 60_000), now)).toBeUndefined();
    expect(totpStep(other, current, now)).toBeUndefined();
    for (const code of ['', '12345', '1234567', 'abcdef', ` ${current}`, `${current.slice(0, 3)}-${current.slice(3)}`]) {
      expect(totpStep(secret, code, now)).toBeUndefined();
    }
  });

  it("the enrolment: the otpauth URL the apps read and its QR code as SVG", async () => {
    const { otpauthUrl, qrSvg } = await totpEnrolment('JBSWY3DPEHPK3PXP', 'My Site', 'ada+x@example.com');
    expect(otpauthUrl).toBe(
      'otpauth://totp/My%20Site:ada%2Bx%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=My%20Site&algorithm=SHA1&digits=6&period=30'
    );
    expect(qrSvg).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\s*$/);
  });
});
