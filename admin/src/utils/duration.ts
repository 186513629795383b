const UNITS: Array<[string, number]> = [
  ['d', 86400],
  ['h', 3600],
  ['m', 60],
];

/** Seconds as the largest whole unit the config accepts ('30d', '12h', '90s'). */
export const formatDuration = (seconds: number): string => {
  for (const [unit, size] of UNITS) {
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
};
