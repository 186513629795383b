/** Text and attribute values in XML documents: escaped, and stripped of what XML 1.0 cannot carry. */

/** Characters XML 1.0 forbids (C0 controls but tab, newline, carriage return; lone surrogates; U+FFFE, U+FFFF), and DEL. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `value` without the characters XML cannot carry (also used for JSON Feed text, so the three feeds agree). */
export const cleanText = (value: unknown): string => (value === null || value === undefined ? '' : String(value)).replace(FORBIDDEN, '');

/** A character `xml` escapes or removes (any surrogate, paired or not, takes the long way). */
// eslint-disable-next-line no-control-regex
const ESCAPED_OR_FORBIDDEN = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** `value` as XML text or a double- or single-quoted attribute value (most values, URLs and dates, need nothing). */
export const xml = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  if (!ESCAPED_OR_FORBIDDEN.test(text)) return text;
  return cleanText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
};

/** A W3C datetime (ISO 8601, UTC, seconds), as sitemaps and Atom want it: `toISOString` without its milliseconds. */
export const w3cDate = (value: unknown): string => {
  const date =
    value instanceof Date ? value : new Date(typeof value === 'number' || /^\d+$/.test(String(value)) ? Number(value) : String(value));
  return `${date.toISOString().slice(0, -5)}Z`;
};

/** An RFC 822 date, as RSS 2.0 wants it. */
export const rfc822Date = (value: unknown): string => new Date(w3cDate(value)).toUTCString();
