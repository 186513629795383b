/**
 * E-mailed 6-digit codes. One row per address (looked up by a keyed hash of the lower-cased address), holding
 * the keyed hash of the current code, its expiry, the wrong tries so far and when it was sent. A newer send
 * replaces the older code; a send inside `resendInterval` is refused; a failed delivery leaves nothing behind.
 * A code has a purpose (features/accounts/auth.shapes.ts `CODE_PURPOSES`), named in its mail and bound into its keyed hash, so
 * only the route of that purpose accepts it; a code sent without one serves registration and the login captcha.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import type { CodePurpose } from './auth.shapes';
import { claimAttempt, codeByLookup, createCode, deleteCodeOfHash, emailCodeByLookup, replaceCode, takeCodeOfHash } from './codes.data';
import { normalizeEmail } from '../../platform/auth';
import { ServiceUnavailableError } from '../../platform/errors';
import { getService } from '../../platform/get-service';
import { describeMailFailure } from '../../platform/mail-failure';
import { sameHash, secretHash } from '../../platform/secret-hash';

export const EMAIL_DELIVERY_FAILED = 'Email delivery failed, please try again later';

export type SendResult = { sent: true; expiresIn: number } | { sent: false; retryAfter: number };

export const describeSeconds = (seconds: number): string => {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
};

/** What a mail says the code is for: `<subject> (<label>)`, and `Your verification code to <action> is …`. */
const PURPOSE_TEXT: Record<CodePurpose, { label: string; action: string }> = {
  register: { label: 'registration', action: 'create your account' },
  login: { label: 'sign-in', action: 'sign in' },
  reset: { label: 'password reset', action: 'reset your password' },
  'login-code': { label: 'sign-in by code', action: 'sign in without your password' },
  'email-change': { label: 'e-mail change', action: "make this your account's e-mail address" },
  delete: { label: 'account deletion', action: 'delete your account' },
  'add-passkey': { label: 'new passkey', action: 'add a passkey to your account' },
};

/** The purposes whose routes also take a code sent without one (the captchas of registration and login). */
const TAKES_CODE_WITHOUT_PURPOSE: ReadonlySet<CodePurpose> = new Set(['register', 'login']);

const emailCode = ({ strapi }: { strapi: Core.Strapi }) => {
  const lookupOf = (email: string) => `email:${secretHash(strapi, 'email-lookup', email)}`;
  // A code without a purpose keeps the hash codes have always had.
  const hashOf = (email: string, code: string, purpose: CodePurpose | undefined) =>
    purpose === undefined ? secretHash(strapi, 'email', email, code) : secretHash(strapi, 'email', email, code, purpose);

  return {
    /** Sends a fresh code for `purpose` to `address`, unless one was sent to it less than `resendInterval` ago. */
    async send(address: string, config: PluginConfig, purpose?: CodePurpose): Promise<SendResult> {
      const { expiresIn, resendInterval, subject } = config.captcha.email;
      const clock = getService(strapi, 'clock');
      const email = normalizeEmail(address);
      const lookup = lookupOf(email);
      const now = clock.now();
      const code = String(clock.randomInt(0, 1_000_000)).padStart(6, '0');
      const data = { kind: 'email', lookup, secretHash: hashOf(email, code, purpose), attempts: 0, expiresAt: now + expiresIn * 1000, sentAt: now };
      // Clamped to the interval: the last send may carry another instance's clock, a little ahead of ours.
      const tooSoon = (retryAfter: number): SendResult => ({
        sent: false,
        retryAfter: Math.min(resendInterval, Math.max(1, Math.ceil(retryAfter))),
      });

      const existing = await codeByLookup(strapi, lookup);
      if (existing) {
        const nextAllowed = Number(existing.sentAt ?? 0) + resendInterval * 1000;
        if (nextAllowed > now) return tooSoon((nextAllowed - now) / 1000);
        // Conditional on the sentAt we read: of two concurrent sends, only one replaces the code.
        if (!(await replaceCode(strapi, existing.id, existing.sentAt, data))) return tooSoon(resendInterval);
      } else {
        try {
          await createCode(strapi, data);
        } catch (error) {
          // The unique lookup: a concurrent send for the same address created the row first.
          if (await codeByLookup(strapi, lookup)) return tooSoon(resendInterval);
          throw error;
        }
      }

      try {
        const named = purpose && PURPOSE_TEXT[purpose];
        const lead = named ? `Your verification code to ${named.action}` : 'Your verification code';
        const notMe = named ? ' If you did not ask for it, ignore this mail: nothing happens without the code.' : '';
        await strapi.plugin('email').service('email').send({
          to: email,
          subject: named ? `${subject} (${named.label})` : subject,
          text: `${lead} is ${code}. It expires in ${describeSeconds(expiresIn)}.${notMe}`,
          html: `<p>${lead} is <strong>${code}</strong>.</p><p>It expires in ${describeSeconds(expiresIn)}.${notMe}</p>`,
        });
      } catch (error) {
        // No usable code may stay behind, and the resend interval must not count a mail that never left.
        await deleteCodeOfHash(strapi, lookup, data.secretHash);
        strapi.log.warn(`cms-plugin-bag: verification e-mail delivery failed (${describeMailFailure(error)})`);
        throw new ServiceUnavailableError(EMAIL_DELIVERY_FAILED);
      }
      await getService(strapi, 'captcha').purgeExpired();
      return { sent: true, expiresIn };
    },

    /**
     * True when `code` is the current code sent to `address` for `purpose` (or, for registration and the login
     * captcha, sent without one); a right code is consumed. Each try takes one of `maxAttempts` with an atomic
     * conditional increment before comparing, so concurrent guesses cannot exceed it, and the right code is deleted
     * by a conditional DELETE, so two concurrent uses give one success. A code of another purpose is a wrong try.
     */
    async verify(address: string, code: string, purpose: CodePurpose, config: PluginConfig): Promise<boolean> {
      const email = normalizeEmail(address);
      const row = await emailCodeByLookup(strapi, lookupOf(email));
      if (!row || Number(row.expiresAt) <= getService(strapi, 'clock').now()) return false;

      if (!(await claimAttempt(strapi, row.id, config.captcha.email.maxAttempts))) return false;
      const accepted = TAKES_CODE_WITHOUT_PURPOSE.has(purpose) ? [purpose, undefined] : [purpose];
      if (!accepted.some((each) => sameHash(row.secretHash, hashOf(email, code, each)))) return false;

      return takeCodeOfHash(strapi, row.id, row.secretHash);
    },
  };
};

export type EmailCodeService = ReturnType<typeof emailCode>;
export default emailCode;
