/**
 * Reads shared by concurrent requests, without ever handing a request a result read before it arrived: per key, a
 * read starts on the event loop's next turn (setImmediate) and serves every request that came before it started;
 * while one is in flight, the requests that come wait for the next one, which starts when the current one ends. So
 * whatever a request is given was read after it arrived (after any write that returned before it did), and the
 * requests of one turn, or of one round trip to the database, cost one read.
 *
 * The turn matters on SQLite: its driver answers synchronously, so a read is never in flight when the next request
 * comes, and without the wait every request paid its own statement (docs/benchmark.md, the 304 list). A lone request
 * waits for nothing but the rest of its turn. Used for the version stamps (cache-versions.ts) and a cached list's view
 * counts (todays-counts.ts).
 */
interface Slot<V> {
  /** The read in flight. */
  current?: Promise<V>;
  /** The next read, not started yet: requests that come join it. */
  due?: Promise<V>;
}

const ignore = () => undefined;

export const sharedReads = <V>() => {
  const slots = new Map<string, Slot<V>>();

  /** `run()`'s result for `key`, read after this call was made. */
  return (key: string, run: () => Promise<V>): Promise<V> => {
    let slot = slots.get(key);
    if (!slot) slots.set(key, (slot = {}));
    const own = slot;
    if (own.due) return own.due;
    const begin = (): Promise<V> => {
      own.due = undefined;
      // A run that throws at once fails its requests as a rejected read would.
      const started: Promise<V> = new Promise<V>((resolve) => resolve(run())).finally(() => {
        if (own.current === started) own.current = undefined;
        if (!own.current && !own.due && slots.get(key) === own) slots.delete(key);
      });
      own.current = started;
      return started;
    };
    own.due = own.current
      ? own.current.then(ignore, ignore).then(begin)
      : new Promise<V>((resolve) => setImmediate(() => resolve(begin())));
    return own.due;
  };
};
