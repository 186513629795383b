/**
 * The settings an administrator may edit in Settings → CMS Bag, described once (`settingsBody` in
 * features/comments/admin-comments.shapes.ts): what is stored and accepted (`adminSettingsSchema`) and what the settings page shows
 * (`adminView`) both come from it.
 */
import { z } from 'zod/v4';
import { settingsBody } from './settings.shapes';
import { lazyShape } from '../shapes/lazy';
import { isRecord } from '../is-record';
import { durationValue, type PluginConfig } from './schema';

/** What an administrator may save: the route's body (any part of the admin settings, nothing else), durations in seconds. */
export const adminSettingsSchema = lazyShape(() =>
  settingsBody.extend({
    auth: settingsBody.shape.auth.unwrap().extend({ refreshToken: z.strictObject({ expiresIn: durationValue }).partial().optional() }).optional(),
  })
);

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
