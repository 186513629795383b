/** Pieces shared by the route shapes: ids, the public author, Strapi's list pagination and REST query parameters. */
import { z } from 'zod/v4';
import { lazyShape } from './lazy';
import { checkedElsewhere, standalone } from './fields';

export const MISSING = 'is required';
const NOT_AN_ID = 'must be a documentId or a numeric id';

/** Ids are PostgreSQL `integer`s: a larger number cannot name a row, and the database would refuse it (a 500). */
const MAX_ID = 2 ** 31 - 1;
const isId = (value: number) => Number.isSafeInteger(value) && value > 0 && value <= MAX_ID;

/** A documentId (letters, digits, `_`, `-`, at most 64) or a numeric id, as a number or in a string; spaces around are ignored. */
export const isIdentifier = (value: string | number): boolean => {
  if (typeof value === 'number') return isId(value);
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? isId(Number(trimmed)) : /^[A-Za-z0-9_-]{1,64}$/.test(trimmed);
};

/** A checked identifier as the services take it: a numeric string becomes the number. */
export const toIdentifier = (value: string | number): Identifier => {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
};

export type Identifier = string | number;

const idValue = () =>
  z.union([z.string(), z.number()], { error: (issue) => (issue.input === undefined || issue.input === null ? MISSING : NOT_AN_ID) });

/** A documentId or a numeric id, as clients may send either. */
export const identifier = lazyShape(() => idValue().refine((value) => value !== '', { message: MISSING, abort: true }).refine(isIdentifier, NOT_AN_ID));

/** An identifier that may be left out (absent, null or empty). */
export const optionalIdentifier = lazyShape(() => idValue()
  .refine((value) => value === '' || isIdentifier(value), NOT_AN_ID)
  .nullable()
  .optional());

/** A path segment naming a document by documentId (or numeric id where the route says so). */
export const pathParam = (description: string) => z.string().describe(description);

/** A user as every route under `/api/bag` shows one: never more than these three fields. */
export const publicAuthor = lazyShape(() => z.object({ id: z.number().int(), documentId: z.string(), username: z.string() }));

export const pagination = lazyShape(() => z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  total: z.number().int(),
}));

/**
 * Strapi REST query parameters of a list, checked and sanitized like the host's own REST API, with its wording
 * (features/content/query-checks.ts): declared for the document, handed to the action as they came.
 */
export const restListQuery = lazyShape(() => ({
  pagination: checkedElsewhere(
    z
      .object({
        page: z.string().optional(),
        pageSize: z.string().optional(),
        start: z.string().optional(),
        limit: z.string().optional(),
      })
      .optional()
  ),
  filters: checkedElsewhere(z.record(z.string(), z.unknown()).optional()),
  sort: checkedElsewhere(z.union([z.string(), z.array(z.string())]).optional()),
  fields: checkedElsewhere(z.union([z.string(), z.array(z.string())]).optional()),
  populate: checkedElsewhere(z.union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())]).optional()),
}));

/** The locales service's wording for a code the host does not have (features/content/locales.ts). */
export const UNKNOWN_LOCALE = standalone('Unknown locale supplied');

/**
 * `?locale=`: one of the host's locale codes; absent → the default locale; another code → 400 `Unknown locale
 * supplied`. The shape refuses what is not one string (`locale=fr&locale=de`); the locales service, the codes the
 * host does not have.
 */
export const localeParam = lazyShape(() =>
  z.string({ error: UNKNOWN_LOCALE }).describe("one of the host's locale codes (default: the host's default locale)").optional()
);
export const localeQuery = { locale: localeParam };

/** Given once: a one-element list (`sort[0]=top`, as Strapi's clients write some parameters) counts as that element. */
export const once = (value: unknown): unknown => (Array.isArray(value) && value.length === 1 ? once(value[0]) : value);
export const ONCE = 'must be given once, as a string';

/**
 * A whole number in a query string, from 1 to `max`: the number, or `fallback` when absent or empty. `message` for
 * anything else (`tooBig` above `max`). The document shows it as the integer it is, with its bounds.
 */
/** `notString`: the message for a value that is not one string (a repeated parameter), by default `message`. */
type IntegerOptions = { max?: number; message: string; tooBig?: string; notString?: string };
type Digits = z.ZodCodec<z.ZodOptional<z.ZodString>, z.ZodNumber>;
type MaybeDigits = z.ZodCodec<z.ZodOptional<z.ZodString>, z.ZodOptional<z.ZodNumber>>;
export function queryInteger(options: IntegerOptions & { fallback: number }): Digits;
export function queryInteger(options: IntegerOptions & { fallback?: number }): Digits | MaybeDigits;
export function queryInteger({ max, fallback, message, tooBig = message, notString = message }: IntegerOptions & { fallback?: number }): Digits | MaybeDigits {
  // The digits make it whole; above `max` is `tooBig` however large.
  let number = z.number();
  if (max !== undefined) number = number.max(max, tooBig);
  const bounded = number.min(1, message).meta({ type: 'integer' });
  // Absent or empty is the fallback. The number is optional to the document (a parameter that may be left out), and
  // its default shown there.
  return z.codec(z.string({ error: notString }).regex(/^(\d+)?$/, message).optional(), bounded.optional().meta(fallback === undefined ? {} : { default: fallback }), {
    decode: (raw) => (raw === undefined || raw === '' ? fallback : Number(raw)),
    encode: (value) => (value === undefined ? undefined : String(value)),
  }) as MaybeDigits;
}

/** A path segment naming a document: documentId or numeric id; undefined when it can be neither (the services' 404). */
export const parseIdentifier = (value: unknown): Identifier | undefined => {
  const result = identifier.safeParse(value);
  return result.success ? toIdentifier(result.data) : undefined;
};
