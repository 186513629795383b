/**
 * An editor's redirect as the Content Manager (or any Document Service call) writes it (docs/redirects.md): `from` a
 * path of the front end, `to` a path or an absolute http(s) URL (none for 410), neither with whitespace or control
 * characters, `statusCode` 301, 302, 307, 308 or 410. An update checks the fields it sets; `to` is required once the
 * status is known not to be 410. A chain that loops is refused by the redirects service (`assertNoLoop`).
 */
import { invalidField } from '../../platform/errors';

export const REDIRECT_STATUSES = [301, 302, 307, 308, 410] as const;

/**
 * Whitespace (Unicode's too), C0 and C1 controls and DEL: a header value must not carry CR/LF, and URL parsers drop
 * tabs and newlines silently, so what an editor saw would not be where a browser goes.
 */
// eslint-disable-next-line no-control-regex
const SPACE_OR_CONTROL = /[\s\u0000-\u001F\u007F-\u009F]/;

/** A path of the front end: exactly one leading `/` (`//host` and `/\host` are other hosts to a browser). */
export const isPath = (value: string) => value.startsWith('/') && !value.startsWith('//') && !/\\/.test(value) && !SPACE_OR_CONTROL.test(value);
const isAbsoluteUrl = (value: string) => {
  if (SPACE_OR_CONTROL.test(value) || value.includes('\\')) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\/[^/]/i.test(value);
  } catch {
    return false;
  }
};

export const validateRedirectData = (data: Record<string, unknown>, creating: boolean) => {
  const { from, to, statusCode } = data;
  if ((creating || from !== undefined) && (typeof from !== 'string' || !isPath(from))) {
    invalidField('from', 'must be a path starting with a single /');
  }
  if (statusCode !== undefined && statusCode !== null && !REDIRECT_STATUSES.includes(Number(statusCode) as never)) {
    invalidField('statusCode', `must be one of ${REDIRECT_STATUSES.join(', ')}`);
  }
  const gone = Number(statusCode ?? (creating ? 301 : NaN)) === 410;
  const knownStatus = creating || (statusCode !== undefined && statusCode !== null);
  if (to === undefined || to === null || to === '') {
    if (knownStatus && !gone) invalidField('to', 'is required unless statusCode is 410');
    return;
  }
  if (typeof to === 'string' && SPACE_OR_CONTROL.test(to)) invalidField('to', 'must not contain whitespace or control characters');
  if (typeof to !== 'string' || !(isPath(to) || isAbsoluteUrl(to))) invalidField('to', 'must be a path starting with / or an absolute http(s) URL');
};
