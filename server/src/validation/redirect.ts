/**
 * An editor's redirect as the Content Manager (or any Document Service call) writes it (docs/redirects.md): `from` a
 * path of the front end, `to` a path or an absolute http(s) URL (none for 410), `statusCode` 301, 302, 307, 308 or
 * 410. An update checks the fields it sets; `to` is required once the status is known not to be 410.
 */
import { invalidField } from '../domain/errors';

export const REDIRECT_STATUSES = [301, 302, 307, 308, 410] as const;

const isPath = (value: string) => value.startsWith('/') && !value.startsWith('//') && !/[\s\\]/.test(value);
const isAbsoluteUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\//i.test(value);
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
  if (typeof to !== 'string' || !(isPath(to) || isAbsoluteUrl(to))) invalidField('to', 'must be a path starting with / or an absolute http(s) URL');
};
