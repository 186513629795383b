/**
 * Image captchas: the text is drawn by svg-captcha from CSPRNG characters and kept only as a keyed hash with its
 * expiry. A captcha is consumed by the first attempt, right or wrong: the row is deleted before the text is
 * compared, and only the request whose DELETE removed it may compare, so two concurrent uses give one success.
 */
import type { Core } from '@strapi/strapi';
import svgCaptcha from 'svg-captcha';
import type { PluginConfig } from '../config/schema';
import { getService } from '../utils/get-service';
import { uid } from '../utils/plugin-id';
import { sameHash, secretHash } from '../utils/secret-hash';

const UID = uid('captcha');
/** Letters and digits without the ambiguous 0 o O 1 i l I. */
export const CAPTCHA_CHARACTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

type Render = (text: string, options?: { noise?: number; color?: boolean }) => string;
// svg-captcha's module is itself the function drawing a given text; its typings only declare `create`.
const render = svgCaptcha as unknown as Render;

interface CaptchaRow {
  id: number;
  secretHash: string;
  expiresAt: string | number;
}

const captcha = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** `size` characters from the CSPRNG (a seam: tests read the text here). */
  generateText(size: number): string {
    const clock = getService(strapi, 'clock');
    return Array.from({ length: size }, () => CAPTCHA_CHARACTERS[clock.randomInt(0, CAPTCHA_CHARACTERS.length)]).join('');
  },

  async createImage(config: PluginConfig): Promise<{ key: string; svg: string }> {
    const clock = getService(strapi, 'clock');
    const text = getService(strapi, 'captcha').generateText(config.captcha.image.size);
    const key = clock.randomBytes(16).toString('hex');
    await strapi.db.query(UID).create({
      data: {
        kind: 'image',
        lookup: key,
        secretHash: secretHash(strapi, 'image', key, text.toLowerCase()),
        attempts: 0,
        expiresAt: clock.now() + config.captcha.image.expiresIn * 1000,
      },
    });
    await this.purgeExpired();
    return { key, svg: render(text, { noise: 2, color: true }) };
  },

  /** True when `code` is the text of captcha `key`, case-insensitively; the captcha is gone either way. */
  async verifyImage(key: string, code: string): Promise<boolean> {
    const row = (await strapi.db.query(UID).findOne({ where: { kind: 'image', lookup: key } })) as CaptchaRow | null;
    if (!row) return false;
    const { count } = await strapi.db.query(UID).deleteMany({ where: { id: row.id } });
    if (count !== 1) return false;
    if (Number(row.expiresAt) <= getService(strapi, 'clock').now()) return false;
    return sameHash(row.secretHash, secretHash(strapi, 'image', key, code.toLowerCase()));
  },

  /** Deletes image captchas and e-mail codes past their expiry. */
  async purgeExpired(): Promise<number> {
    const { count } = await strapi.db.query(UID).deleteMany({ where: { expiresAt: { $lte: getService(strapi, 'clock').now() } } });
    return count;
  },
});

export type CaptchaService = ReturnType<typeof captcha>;
export default captcha;
