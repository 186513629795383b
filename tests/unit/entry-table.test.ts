/**
 * The response cache's table of entries (server/src/features/cache/entry-table.ts) against a reference model (a Map
 * in use order): random adds, removes, lookups and uses. After each step every key the model holds is found in its
 * slot and no other key is, the eviction order is the model's, and the table grows past its first size and shrinks
 * back once mostly empty, renumbering its slots without losing an entry.
 */
import { EntryTable, keyHash } from '../../server/src/features/cache/entry-table';

/** A small deterministic generator (mulberry32), so a failure is reproducible from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('the response cache entry table', () => {
  it.each([1, 2, 3])('matches a Map in use order under random adds, removes, lookups and uses (seed %i)', (seed) => {
    const next = random(seed);
    const region = Buffer.alloc(1 << 20);
    let at = 0;
    const table = new EntryTable(region);
    /** key → { slot, serial, offset }, in use order (least recently used first). */
    const model = new Map<string, { slot: number; serial: number; offset: number }>();
    // Keys share long prefixes and some are not ASCII, like URLs with queries; a few collide on purpose below.
    const keyOf = (n: number) => `/api/bag/search?{"q":"zz","x":"${n}${n % 7 === 0 ? 'é' : ''}"}`;
    const add = (key: string) => {
      const length = Buffer.byteLength(key);
      if (at + length > region.length) at = 0;
      region.write(key, at, length, 'utf8');
      const slot = table.add({ hash: keyHash(key), offset: at, keyLength: length, etagLength: 0, bodyLength: 0, cost: 1, shared: 0, flags: 0 });
      model.set(key, { slot, serial: table.serial[slot], offset: at });
      at += length;
    };
    const remove = (key: string) => {
      table.remove(model.get(key)!.slot);
      model.delete(key);
    };
    let shrank = 0;
    let peak = 0;

    for (let step = 0; step < 6000; step += 1) {
      const roll = next();
      // Phases: fill well past the first size, then empty most of it, then fill again.
      const filling = step % 3000 < 1800;
      const n = Math.floor(next() * 5000);
      const key = keyOf(n);
      if (roll < (filling ? 0.75 : 0.05)) {
        if (model.has(key)) remove(key);
        add(key);
      } else if (roll < (filling ? 0.8 : 0.85) && model.size > 0) {
        // Remove the least recently used (eviction), or a random one.
        const victim = next() < 0.5 ? model.keys().next().value! : [...model.keys()][Math.floor(next() * model.size)];
        remove(victim);
      } else {
        const slot = table.find(key, keyHash(key));
        const known = model.get(key);
        expect(slot).toBe(known ? known.slot : -1);
        if (known) {
          table.touch(slot);
          model.delete(key);
          model.set(key, known);
        }
      }
      peak = Math.max(peak, model.size);
      if (table.sparse) {
        const before = new Map([...model].map(([k, v]) => [v.slot, k]));
        table.shrink((from, to) => {
          const moved = model.get(before.get(from)!)!;
          moved.slot = to;
        });
        shrank += 1;
      }
      expect(table.count).toBe(model.size);
      // Eviction order: the model's (the whole order every 50 steps, the oldest at each).
      if (step % 50 === 0) expect(table.slots()).toEqual([...model.values()].map((entry) => entry.slot));
      expect(table.oldest()).toBe(model.size > 0 ? model.values().next().value!.slot : -1);
    }
    // Every key it holds, found where the model says; a slot's serial still names its entry.
    for (const [key, entry] of model) {
      expect(table.find(key, keyHash(key))).toBe(entry.slot);
      expect(table.holds(entry.slot, entry.serial)).toBe(true);
      expect(table.offset[entry.slot]).toBe(entry.offset);
    }
    expect(peak).toBeGreaterThan(1024);
    expect(shrank).toBeGreaterThan(0);
  });

  it('keys with the same hash are told apart by their bytes; a removed slot no longer holds its serial', () => {
    const region = Buffer.alloc(1024);
    const table = new EntryTable(region);
    const keys = ['/api/bag/a', '/api/bag/b', '/api/bag/é'];
    let at = 0;
    // One hash for all three: only the bytes in the region can tell them apart.
    const slots = keys.map((key) => {
      const length = region.write(key, at, 'utf8');
      const slot = table.add({ hash: 42, offset: at, keyLength: length, etagLength: 0, bodyLength: 0, cost: 1, shared: 0, flags: 0 });
      at += length;
      return slot;
    });
    keys.forEach((key, i) => expect(table.find(key, 42)).toBe(slots[i]));
    expect(table.find('/api/bag/c', 42)).toBe(-1);
    expect(table.find('/api/bag/a', keyHash('/api/bag/a'))).toBe(-1);
    const serial = table.serial[slots[1]];
    table.remove(slots[1]);
    expect(table.holds(slots[1], serial)).toBe(false);
    expect(table.find(keys[1], 42)).toBe(-1);
    expect(table.find(keys[2], 42)).toBe(slots[2]);
    expect(table.slots()).toEqual([slots[0], slots[2]]);
  });
});
