/**
 * Timestamps as raw queries return them: a Date (PostgreSQL), epoch milliseconds as a number or a digit string
 * (SQLite), or a date string.
 */
const toMs = (value: unknown): number => {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return new Date(String(value)).getTime();
};

/** The same timestamp as an ISO 8601 string. */
export const toIso = (value: unknown): string => new Date(toMs(value)).toISOString();
