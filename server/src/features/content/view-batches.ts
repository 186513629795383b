/**
 * Reads of one document counted together. Per document at most one `views = views + n` is in flight: the reads that
 * reach the counter in one turn of the event loop, or while the document's previous statement runs, wait for the
 * next one, which adds them all, and each read gets its own count back, in arrival order, as if they had been counted
 * one after another. A popular document read by many clients at once then costs one write per turn or per round trip
 * to the database instead of one per read (on SQLite every write rewrites the document's rows and takes the one
 * writer's turn; on PostgreSQL each waits for the rows' lock); a read alone is counted by its own write, started when
 * the turn's I/O is handled (setImmediate). Nothing is counted before the write returns, so a read answered has its
 * view stored, and a failed write fails every read it was counting.
 */

/**
 * Adds `count` views to the document, returns the new count (null when the document has no row); `locales` says how
 * many of them were read in each locale (the daily counts: docs/readers.md).
 */
export type AddViews<Type extends string> = (type: Type, documentId: string, count: number, locales: Map<string, number>) => Promise<number | null>;

interface Waiting {
  locale: string | undefined;
  resolve(count: number | null): void;
  reject(error: unknown): void;
}

interface Counter<Type extends string> {
  type: Type;
  documentId: string;
  /** Reads not yet in a statement. */
  waiting: Waiting[];
  /** A statement of this document is running, or one is due in this turn. */
  busy: boolean;
}

export const viewBatches = <Type extends string>(addViews: AddViews<Type>) => {
  const counters = new Map<string, Counter<Type>>();

  const write = async (key: string, counter: Counter<Type>) => {
    const reads = counter.waiting;
    counter.waiting = [];
    try {
      const locales = new Map<string, number>();
      for (const { locale } of reads) if (locale !== undefined) locales.set(locale, (locales.get(locale) ?? 0) + 1);
      const total = await addViews(counter.type, counter.documentId, reads.length, locales);
      // The last read gets the total, the ones before it the counts before theirs.
      reads.forEach((read, index) => read.resolve(total === null ? null : total - (reads.length - 1 - index)));
    } catch (error) {
      for (const read of reads) read.reject(error);
    }
    // The reads that came meanwhile go in the next statement, at once.
    if (counter.waiting.length > 0) void write(key, counter);
    else {
      counter.busy = false;
      counters.delete(key);
    }
  };

  /** Counts one read of the document (in `locale`, for the daily counts); resolves to its count once stored. */
  return (type: Type, documentId: string, locale?: string): Promise<number | null> =>
    new Promise((resolve, reject) => {
      const key = `${type}\u0000${documentId}`;
      let counter = counters.get(key);
      if (!counter) counters.set(key, (counter = { type, documentId, waiting: [], busy: false }));
      counter.waiting.push({ locale, resolve, reject });
      if (!counter.busy) {
        counter.busy = true;
        const due = counter;
        setImmediate(() => void write(key, due));
      }
    });
};
