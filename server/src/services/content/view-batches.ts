/**
 * Reads of one document counted together: the reads that reach the counter in one turn of the event loop wait for a
 * single `views = views + n` of that document, run when the turn's I/O is done (setImmediate), and each read gets its
 * own count back, in arrival order, as if they had been counted one after another. A popular document read by many
 * clients at once then costs one write per turn instead of one per read (on SQLite every write rewrites the
 * document's rows and takes the one writer's turn; on PostgreSQL each waits for the rows' lock); a read alone is
 * counted by its own write, in the same turn. Nothing is counted before the write returns, so a read answered has
 * its view stored, and a failed write fails every read it was counting.
 */

/** Adds `count` views to the document, returns the new count (null when the document has no row). */
export type AddViews<Type extends string> = (type: Type, documentId: string, count: number) => Promise<number | null>;

interface Waiting {
  resolve(count: number | null): void;
  reject(error: unknown): void;
}

interface Batch<Type extends string> {
  type: Type;
  documentId: string;
  waiting: Waiting[];
}

export const viewBatches = <Type extends string>(addViews: AddViews<Type>) => {
  let pending = new Map<string, Batch<Type>>();
  let scheduled = false;

  const write = async ({ type, documentId, waiting }: Batch<Type>) => {
    try {
      const total = await addViews(type, documentId, waiting.length);
      // The last read gets the total, the ones before it the counts before theirs.
      waiting.forEach((read, index) => read.resolve(total === null ? null : total - (waiting.length - 1 - index)));
    } catch (error) {
      for (const read of waiting) read.reject(error);
    }
  };

  const flush = () => {
    const batches = pending;
    pending = new Map();
    scheduled = false;
    for (const batch of batches.values()) void write(batch);
  };

  /** Counts one read of the document; resolves to its count once stored. */
  return (type: Type, documentId: string): Promise<number | null> =>
    new Promise((resolve, reject) => {
      const key = `${type}\u0000${documentId}`;
      let batch = pending.get(key);
      if (!batch) pending.set(key, (batch = { type, documentId, waiting: [] }));
      batch.waiting.push({ resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
};
