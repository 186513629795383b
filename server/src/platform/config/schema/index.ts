/**
 * The one description of the plugin's configuration: its TypeScript type, its defaults and its validation. The
 * sections live beside this file by subject (accounts.ts, comments.ts, delivery.ts) on the building blocks of
 * fields.ts; durations are accepted as seconds or as strings such as '90s', '15m', '1h', '30d' and come out as seconds.
 */
import { z } from 'zod/v4';
import type { captchaType } from '../settings.shapes';
import { accountSections, type escalationType } from './accounts';
import { commentSections } from './comments';
import { deliverySections } from './delivery';

export { durationValue, toSeconds } from './fields';
export { ESCALATION_TYPES } from './accounts';

const { content, ...served } = deliverySections;
/** The sections in the order they have always had: the first bad key a message names is the first in this order. */
export const configSchema = z.object({ ...accountSections, content, ...commentSections, ...served }).strict();

/** The configuration as given in config/plugins.ts. */
export type PluginConfigInput = z.input<typeof configSchema>;
/** The configuration as services see it: defaults applied, durations in seconds. */
export type PluginConfig = z.output<typeof configSchema>;
export type CaptchaType = z.infer<typeof captchaType>;
export type EscalationType = z.infer<typeof escalationType>;
export type RateLimitName = keyof Omit<PluginConfig['rateLimit'], 'enabled' | 'purgeInterval'>;

/** The type of a given value, as the messages name it. */
const typeName = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'number' : Number.isNaN(value) ? 'nan' : 'float';
  return typeof value;
};

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);

/** `<key> <what is wrong>`, in the wording of the plugin's earlier releases. */
const describeIssue = (input: unknown, issue: z.core.$ZodIssue): string => {
  const key = issue.path.join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key ${issue.keys.map((k) => (key ? `${key}.${k}` : k)).join(', ')}`;
    case 'invalid_type':
      return `${key} must be a ${issue.expected === 'int' ? 'integer' : issue.expected}, got ${typeName(valueAt(input, issue.path))}`;
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const than = issue.code === 'too_small' ? 'greater than' : 'less than';
      const least = issue.code === 'too_small' ? 'at least' : 'at most';
      if (issue.origin === 'string') return `${key} string must contain ${least} ${bound} character(s)`;
      if (issue.origin === 'array') return `${key} array must contain ${least} ${bound} element(s)`;
      return `${key} number must be ${than}${issue.inclusive ? ' or equal to' : ''} ${bound}`;
    }
    case 'invalid_union': {
      // The alternative the value had the type of says what is wrong with it (a duration string that does not parse).
      const typed = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.code !== 'invalid_type'));
      return typed ? describeIssue(input, { ...typed[0], path: [...issue.path, ...typed[0].path] }) : `${key} invalid input`;
    }
    case 'invalid_format':
      if (issue.format === 'url' || issue.format === 'email') return `${key} invalid ${issue.format}`;
      return `${key} ${issue.message}`;
    default:
      return `${key} ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
  }
};

/** Parses a configuration and throws an Error naming the first bad key, so Strapi refuses to start. */
export const parseConfig = (input: unknown): PluginConfig => {
  const result = configSchema.safeParse(input ?? {});
  if (!result.success) {
    throw new Error(`cms-plugin-bag: ${result.error.issues.map((issue) => describeIssue(input, issue)).join('; ')}`);
  }
  return result.data;
};
