/**
 * Field builders with the plugin's wording. A message here is what follows the field's name: the validation prefixes
 * the path (`identifier must be at most 255 characters`), the texts clients have had since the first release.
 */
import { z } from 'zod/v4';

/** How a refused value is quoted in a type message: strings in double quotes, lists and objects as indented JSON. */
const printSimple = (value: unknown): string | null => {
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return `"${value}"`;
  return null;
};
const printValue = (value: unknown): string =>
  printSimple(value) ??
  JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, item: unknown) {
      return printSimple(this[key]) ?? item;
    },
    2
  );

/** A string: absent is `is a required field`, any other type names the value it got. */
export const string = () =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? 'is a required field' : `must be a \`string\` type, but the final value was: \`${printValue(issue.input)}\`.`,
  });

/** Present and not empty. */
export const required = (value: string) => value !== '';
export const REQUIRED = 'is a required field';

/** PostgreSQL cannot store a NUL character in text (a 500); nothing a client sends needs one. */
export const noNul = (value: string) => !value.includes('\u0000');
export const NO_NUL = 'must not contain NUL characters';

export const atMost = (max: number) => `must be at most ${max} characters`;
export const atLeast = (min: number) => `must be at least ${min} characters`;

/** Length in code points, so an emoji counts once. */
export const codePoints = (value: string) => Array.from(value).length;

/** Text that is looked up or stored as a `varchar(255)`. */
export const text = (max = 255) => string().max(max, atMost(max)).refine(noNul, NO_NUL);

/** The e-mail syntax accounts have always been checked with (an empty string is left to `required`). */
const EMAIL =
  /^((([a-z]|\d|[!#$%&'*+\-/=?^_`{|}~]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])+(\.([a-z]|\d|[!#$%&'*+\-/=?^_`{|}~]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])+)*)|((\x22)((((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(([\x01-\x08\x0b\x0c\x0e-\x1f\x7f]|\x21|[\x23-\x5b]|[\x5d-\x7e]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(\\([\x01-\x09\x0b\x0c\x0d-\x7f]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]))))*(((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(\x22)))@((([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))\.)+(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))$/i;
export const email = () =>
  text()
    .refine((value) => value === '' || EMAIL.test(value), 'must be a valid email')
    .refine(required, REQUIRED);

/** A JSON object body: an array or a string has no fields to pick. */
export const BODY_NOT_OBJECT = 'The request body must be a JSON object';

const alone = new Set<string>();
/** A message that is the error's whole message, the field named in the details only (platform/shapes/parse.ts). */
export const standalone = (message: string): string => {
  alone.add(message);
  return message;
};
export const isStandalone = (message: string): boolean => alone.has(message);

const elsewhere = new WeakSet<object>();
/** A value another step reads and words (platform/request-check.ts hands it over unparsed); declared for the document only. */
export const checkedElsewhere = <S extends z.ZodType>(shape: S): S => {
  elsewhere.add(shape);
  return shape;
};
export const isCheckedElsewhere = (shape: object): boolean => elsewhere.has(shape);
