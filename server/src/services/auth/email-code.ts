/**
 * E-mailed 6-digit codes. One row per address (looked up by a keyed hash of the lower-cased address), holding
 * the keyed hash of the current code, its expiry, the wrong tries so far and when it was sent. A newer send
 * replaces the older code; a send inside `resendInterval` is refused; a failed delivery leaves nothing behind.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../config/schema';
import { claimAttempt } from '../../repositories/auth/codes';
import { normalizeEmail } from '../../domain/auth';
import { ServiceUnavailableError } from '../../domain/errors';
import { getService } from '../get-service';
import { describeMailFailure } from '../../utils/mail-failure';
import { uid } from '../../domain/plugin-id';
import { sameHash, secretHash } from '../../utils/secret-hash';

const UID = uid('captcha');
export const EMAIL_DELIVERY_FAILED = 'Email delivery failed, please try again later';

export type SendResult = { sent: true; expiresIn: number } | { sent: false; retryAfter: number };

interface CodeRow {
  id: number;
  secretHash: string;
  expiresAt: string | number;
  sentAt: string | number | null;
}

export const describeSeconds = (seconds: number): string => {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
};

const emailCode = ({ strapi }: { strapi: Core.Strapi }) => {
  const lookupOf = (email: string) => `email:${secretHash(strapi, 'email-lookup', email)}`;
  const hashOf = (email: string, code: string) => secretHash(strapi, 'email', email, code);

  return {
    /** Sends a fresh code to `address`, unless one was sent to it less than `resendInterval` ago. */
    async send(address: string, config: PluginConfig): Promise<SendResult> {
      const { expiresIn, resendInterval, subject } = config.captcha.email;
      const clock = getService(strapi, 'clock');
      const email = normalizeEmail(address);
      const lookup = lookupOf(email);
      const now = clock.now();
      const code = String(clock.randomInt(0, 1_000_000)).padStart(6, '0');
      const data = { kind: 'email', lookup, secretHash: hashOf(email, code), attempts: 0, expiresAt: now + expiresIn * 1000, sentAt: now };
      // Clamped to the interval: the last send may carry another instance's clock, a little ahead of ours.
      const tooSoon = (retryAfter: number): SendResult => ({
        sent: false,
        retryAfter: Math.min(resendInterval, Math.max(1, Math.ceil(retryAfter))),
      });

      const existing = (await strapi.db.query(UID).findOne({ where: { lookup } })) as CodeRow | null;
      if (existing) {
        const nextAllowed = Number(existing.sentAt ?? 0) + resendInterval * 1000;
        if (nextAllowed > now) return tooSoon((nextAllowed - now) / 1000);
        // Conditional on the sentAt we read: of two concurrent sends, only one replaces the code.
        const { count } = await strapi.db.query(UID).updateMany({ where: { id: existing.id, sentAt: existing.sentAt }, data });
        if (count !== 1) return tooSoon(resendInterval);
      } else {
        try {
          await strapi.db.query(UID).create({ data });
        } catch (error) {
          // The unique lookup: a concurrent send for the same address created the row first.
          if (await strapi.db.query(UID).findOne({ where: { lookup } })) return tooSoon(resendInterval);
          throw error;
        }
      }

      try {
        await strapi.plugin('email').service('email').send({
          to: email,
          subject,
          text: `Your verification code is ${code}. It expires in ${describeSeconds(expiresIn)}.`,
          html: `<p>Your verification code is <strong>${code}</strong>.</p><p>It expires in ${describeSeconds(expiresIn)}.</p>`,
        });
      } catch (error) {
        // No usable code may stay behind, and the resend interval must not count a mail that never left.
        await strapi.db.query(UID).deleteMany({ where: { lookup, secretHash: data.secretHash } });
        strapi.log.warn(`cms-plugin-bag: verification e-mail delivery failed (${describeMailFailure(error)})`);
        throw new ServiceUnavailableError(EMAIL_DELIVERY_FAILED);
      }
      await getService(strapi, 'captcha').purgeExpired();
      return { sent: true, expiresIn };
    },

    /**
     * True when `code` is the current code sent to `address`; a right code is consumed. Each try takes one of
     * `maxAttempts` with an atomic conditional increment before comparing, so concurrent guesses cannot exceed it,
     * and the right code is deleted by a conditional DELETE, so two concurrent uses give one success.
     */
    async verify(address: string, code: string, config: PluginConfig): Promise<boolean> {
      const email = normalizeEmail(address);
      const row = (await strapi.db.query(UID).findOne({ where: { kind: 'email', lookup: lookupOf(email) } })) as CodeRow | null;
      if (!row || Number(row.expiresAt) <= getService(strapi, 'clock').now()) return false;

      if (!(await claimAttempt(strapi, row.id, config.captcha.email.maxAttempts))) return false;
      if (!sameHash(row.secretHash, hashOf(email, code))) return false;

      const { count } = await strapi.db.query(UID).deleteMany({ where: { id: row.id, secretHash: row.secretHash } });
      return count === 1;
    },
  };
};

export type EmailCodeService = ReturnType<typeof emailCode>;
export default emailCode;
