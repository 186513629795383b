import { toIso } from './time';

describe('toIso: a timestamp as raw queries return it, as ISO 8601', () => {
  const iso = '2026-03-04T05:06:07.089Z';
  const ms = Date.parse(iso);

  it.each([
    ['a Date (PostgreSQL)', new Date(ms)],
    ['epoch milliseconds as a number (SQLite)', ms],
    ['epoch milliseconds as a digit string (SQLite)', String(ms)],
    ['an ISO string', iso],
    ['a date string with an offset', '2026-03-04T07:06:07.089+02:00'],
  ])('reads %s', (_case, value) => {
    expect(toIso(value)).toBe(iso);
  });

  it('refuses what is no date (RangeError from toISOString)', () => {
    expect(() => toIso('not a date')).toThrow(RangeError);
  });
});
