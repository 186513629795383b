/**
 * The building blocks of the configuration's sections: durations (seconds, or strings such as '90s', '15m', '1h',
 * '30d', coming out as seconds), sections, on/off captcha switches and rate limits.
 */
import { z } from 'zod/v4';
import { DURATION_PATTERN, captchaType, durationInput } from '../settings.shapes';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds in a duration written as a number of seconds or as '90s', '15m', '1h', '30d'. */
export const toSeconds = (value: number | string): number => {
  if (typeof value === 'number') return value;
  const match = DURATION_PATTERN.exec(value.trim());
  if (!match) throw new Error(`invalid duration ${value}`);
  return Number(match[1]) * UNITS[match[2] ?? 's'];
};

/** A duration over 0 seconds, as seconds. */
export const durationValue = durationInput
  .transform(toSeconds)
  .refine((seconds) => seconds > 0, 'must be longer than 0 seconds');

export const duration = (fallback: string) => durationValue.default(toSeconds(fallback));

/** A duration that may be 0 (switched off), such as the HTTP cache lifetimes. */
export const durationOrZero = (fallback: number) =>
  z
    .union([z.number().int().min(0), z.string().regex(DURATION_PATTERN, 'must be a duration such as 90s, 15m, 1h or 30d')])
    .default(fallback)
    .transform(toSeconds);

/**
 * A section of the configuration: an unknown key in it is an error, and a missing one is `{}` with its defaults
 * applied (every key of a section has a default or is optional, which a generic cannot tell the compiler).
 */
export const section = <Shape extends z.ZodRawShape>(shape: Shape) => {
  const object = z.object(shape).strict();
  return object.prefault({} as z.input<typeof object>);
};

export const captchaSwitch = (enabled: boolean, type: 'image' | 'email') =>
  section({ enabled: z.boolean().default(enabled), type: captchaType.default(type) });

export const limit = (interval: string, max: number) =>
  section({ interval: duration(interval), max: z.number().int().positive().default(max) });
