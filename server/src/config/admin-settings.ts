/**
 * The settings an administrator may edit in Settings → CMS Bag, described once: what is stored and accepted
 * (`adminSettingsSchema`, partial) and what the settings page shows (`adminView`) both come from `ADMIN_SETTINGS`.
 */
import { z } from 'zod';
import { isRecord } from '../utils/is-record';
import { configSchema, type PluginConfig } from './schema';

const ADMIN_SETTINGS = z
  .object({
    login: z.object({ captcha: configSchema.shape.login.removeDefault().shape.captcha.removeDefault() }).strict(),
    register: z.object({ captcha: configSchema.shape.register.removeDefault().shape.captcha.removeDefault() }).strict(),
    auth: z
      .object({
        refreshToken: z.object({ expiresIn: configSchema.shape.auth.removeDefault().shape.refreshToken.removeDefault().shape.expiresIn }).strict(),
        requireEncryptedPassword: z.boolean(),
      })
      .strict(),
    comments: z.object({ autoApprove: z.boolean() }).strict(),
  })
  .strict();

/** What an administrator may save: any part of the admin settings, nothing else. */
export const adminSettingsSchema = ADMIN_SETTINGS.deepPartial().strict();

export type AdminSettings = z.output<typeof adminSettingsSchema>;

const unwrap = (schema: z.ZodTypeAny): z.ZodTypeAny =>
  schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? unwrap(schema._def.innerType) : schema;

const pick = (schema: z.ZodTypeAny, value: unknown): unknown => {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject) || !isRecord(value)) return value;
  const shape = inner.shape as Record<string, z.ZodTypeAny>;
  return Object.fromEntries(Object.keys(shape).map((key) => [key, pick(shape[key], value[key])]));
};

/** Only the admin keys of a configuration, as the settings page shows them. */
export const adminView = (config: PluginConfig) => pick(ADMIN_SETTINGS, config) as AdminSettings;
