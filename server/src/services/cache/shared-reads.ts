/**
 * Reads shared by concurrent requests, without ever handing a request a result read before it arrived: per key, at
 * most one read is in flight; a request that comes while one is in flight waits for the next one, which starts when
 * the current one ends and serves every request that came meanwhile. So whatever a request is given was read after
 * it arrived (after any write that returned before it did), and N concurrent requests cost two reads, not N.
 * Used for the version stamps (cache-versions.ts) and a cached list's view counts (response-cache.ts).
 */
interface Slot<V> {
  current?: Promise<V>;
  queued?: Promise<V>;
}

const ignore = () => undefined;

export const sharedReads = <V>() => {
  const slots = new Map<string, Slot<V>>();

  /** `run()`'s result for `key`, read after this call was made. */
  return (key: string, run: () => Promise<V>): Promise<V> => {
    let slot = slots.get(key);
    if (!slot) slots.set(key, (slot = {}));
    const own = slot;
    const start = (): Promise<V> => {
      const started: Promise<V> = run().finally(() => {
        if (own.current === started) own.current = undefined;
        if (!own.current && !own.queued && slots.get(key) === own) slots.delete(key);
      });
      own.current = started;
      return started;
    };
    if (!own.current) return start();
    own.queued ??= own.current.then(ignore, ignore).then(() => {
      own.queued = undefined;
      return start();
    });
    return own.queued;
  };
};
