/**
 * RFC 6238 through `otpauth`: SHA-1, 6 digits, 30-second steps, one step of drift either way. Pure functions; the
 * clock and the single use of a step are the caller's (features/accounts/mfa.service.ts).
 */
import type * as Otpauth from 'otpauth';
import type * as QRCode from 'qrcode';
import { lazyRequire } from '../../platform/lazy-require';

const otpauth = lazyRequire<typeof Otpauth>('otpauth');
const qrcode = lazyRequire<typeof QRCode>('qrcode');

export const TOTP_PERIOD = 30;
const DIGITS = 6;
const WINDOW = 1;

const totpOf = (secret: string, issuer = '', label = '') => {
  const { Secret, TOTP } = otpauth();
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD, secret: Secret.fromBase32(secret) });
};

/** A new 160-bit secret, base32. */
export const newTotpSecret = (random: Buffer): string => new (otpauth().Secret)({ buffer: new Uint8Array(random).buffer }).base32;

/** The `otpauth://` URL authenticator apps read, and its QR code as `<svg…>`. */
export const totpEnrolment = async (secret: string, issuer: string, account: string) => {
  const label = encodeURIComponent(account);
  const otpauthUrl =
    `otpauth://totp/${encodeURIComponent(issuer)}:${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}` +
    `&algorithm=SHA1&digits=${DIGITS}&period=${TOTP_PERIOD}`;
  const qrSvg = await qrcode().toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUrl, qrSvg };
};

/** The time step `code` belongs to at `now` (ms), within the drift window, or undefined when it matches none. */
export const totpStep = (secret: string, code: string, now: number): number | undefined => {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? undefined : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
};
