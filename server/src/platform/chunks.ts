/** Ids per statement, well under the bound-parameter limits of SQLite and PostgreSQL. */
const CHUNK = 500;

/** Runs `statement` on `items` a CHUNK at a time, in order; returns the sum of what the statements counted. */
export const inChunks = async <T>(items: readonly T[], statement: (chunk: T[]) => Promise<unknown>): Promise<number> => {
  let counted = 0;
  for (let start = 0; start < items.length; start += CHUNK) {
    const result = await statement(items.slice(start, start + CHUNK));
    if (typeof result === 'number') counted += result;
  }
  return counted;
};
