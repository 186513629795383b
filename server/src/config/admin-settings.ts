/**
 * The settings an administrator may edit in Settings → CMS Bag, described once: what is stored and accepted
 * (`adminSettingsSchema`, any part of them) and what the settings page shows (`adminView`) both come from it.
 */
import { z } from 'zod/v4';
import { isRecord } from '../utils/is-record';
import { captchaType, durationValue, type PluginConfig } from './schema';

const captcha = z.strictObject({ enabled: z.boolean(), type: captchaType }).partial();

/** What an administrator may save: any part of the admin settings, nothing else. */
export const adminSettingsSchema = z
  .strictObject({
    login: z.strictObject({ captcha }).partial(),
    register: z.strictObject({ captcha }).partial(),
    auth: z.strictObject({ refreshToken: z.strictObject({ expiresIn: durationValue }).partial(), requireEncryptedPassword: z.boolean() }).partial(),
    comments: z.strictObject({ autoApprove: z.boolean() }).partial(),
  })
  .partial();

export type AdminSettings = z.output<typeof adminSettingsSchema>;

const unwrap = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodOptional ? unwrap(schema.unwrap() as z.ZodType) : schema);

const pick = (schema: z.ZodType, value: unknown): unknown => {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject) || !isRecord(value)) return value;
  const shape = inner.shape as Record<string, z.ZodType>;
  return Object.fromEntries(Object.keys(shape).map((key) => [key, pick(shape[key], value[key])]));
};

/** Only the admin keys of a configuration, as the settings page shows them. */
export const adminView = (config: PluginConfig) => pick(adminSettingsSchema, config) as AdminSettings;
