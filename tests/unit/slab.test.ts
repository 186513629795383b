/**
 * The response cache's region allocator (server/src/features/cache/slab.ts) against a reference model: which byte
 * belongs to which live range. Random allocations, releases, pins and unpins; after each step no two ranges overlap,
 * the free list is sorted and merged (no two free ranges touch), free and used bytes add up to the whole region, an
 * allocation fails only when no free run is long enough and otherwise takes the first one that is, and a released
 * range comes back only once its last pin has dropped.
 */
import { Slab } from '../../server/src/features/cache/slab';

/** What the model knows of a range the slab handed out. */
interface Range {
  offset: number;
  size: number;
  pins: number;
  released: boolean;
}

/** A small deterministic generator (mulberry32), so a failure is reproducible from its seed. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** The free runs the model holds: maximal stretches of bytes no range owns. */
const freeRuns = (owner: Int32Array) => {
  const runs: { offset: number; size: number }[] = [];
  let start = -1;
  for (let i = 0; i <= owner.length; i += 1) {
    const free = i < owner.length && owner[i] === 0;
    if (free && start < 0) start = i;
    if (!free && start >= 0) {
      runs.push({ offset: start, size: i - start });
      start = -1;
    }
  }
  return runs;
};

describe('the response cache region allocator', () => {
  it.each([1, 2, 3, 4])('matches the reference model under random allocate, release, pin and unpin (seed %i)', (seed) => {
    const next = random(seed);
    const capacity = 4096;
    const slab = new Slab(capacity);
    // The model: which range (by id) owns each byte; 0 is free.
    const owner = new Int32Array(capacity);
    const live = new Map<number, Range>();
    let ids = 0;

    const check = () => {
      const runs = freeRuns(owner);
      expect(slab.freeRanges()).toEqual(runs);
      const used = capacity - runs.reduce((sum, run) => sum + run.size, 0);
      expect(slab.used).toBe(used);
      expect([...live.values()].reduce((sum, range) => sum + range.size, 0)).toBe(used);
    };

    for (let step = 0; step < 3000; step += 1) {
      const roll = next();
      if (roll < 0.45) {
        const length = 1 + Math.floor(next() * (next() < 0.2 ? 1200 : 150));
        const size = Slab.sizeOf(length);
        const firstFit = freeRuns(owner).find((run) => run.size >= size);
        const offset = slab.allocate(length);
        if (!firstFit) {
          expect(offset).toBe(-1);
          continue;
        }
        expect(offset).toBe(firstFit.offset);
        const range: Range = { offset, size, pins: 0, released: false };
        ids += 1;
        // No overlap with any range still held.
        const taken = owner.subarray(offset, offset + size);
        expect(taken.every((byte) => byte === 0)).toBe(true);
        taken.fill(ids);
        live.set(ids, range);
        // Its view is the region's memory, not a copy.
        const view = slab.view(offset, length);
        expect(view.length).toBe(length);
        view.fill(ids & 0xff);
        expect(slab.region[offset]).toBe(ids & 0xff);
      } else if (live.size > 0) {
        const keys = [...live.keys()];
        const id = keys[Math.floor(next() * keys.length)];
        const range = live.get(id)!;
        if (roll < 0.6 && !range.released) {
          slab.pin(range.offset);
          range.pins += 1;
        } else if (roll < 0.75 && range.pins > 0) {
          slab.unpin(range.offset);
          range.pins -= 1;
        } else if (!range.released) {
          slab.release(range.offset, range.size);
          range.released = true;
        }
        expect(slab.pins(range.offset)).toBe(range.pins);
        if (range.released && range.pins === 0) {
          // Freed: its bytes are free runs again (check() compares them with the slab's free list).
          owner.fill(0, range.offset, range.offset + range.size);
          live.delete(id);
        }
        // Otherwise pinned (or not released): still held, its bytes untouched by later allocations (check()).
      }
      check();
    }
    // Every pin dropped and every range released: the region is one free range again, nothing lost.
    for (const range of live.values()) {
      for (; range.pins > 0; range.pins -= 1) slab.unpin(range.offset);
      if (!range.released) slab.release(range.offset, range.size);
    }
    expect(slab.used).toBe(0);
    expect(slab.freeRanges()).toEqual([{ offset: 0, size: capacity }]);
  });

  it('a released range that is pinned is not reused until its last pin drops, then merges with its neighbours', () => {
    const slab = new Slab(64);
    const a = slab.allocate(16);
    const b = slab.allocate(16);
    const c = slab.allocate(32);
    expect([a, b, c]).toEqual([0, 16, 32]);
    expect(slab.allocate(1)).toBe(-1);
    slab.pin(b);
    slab.pin(b);
    slab.release(b, 16);
    expect(slab.used).toBe(64);
    expect(slab.allocate(8)).toBe(-1);
    slab.unpin(b);
    expect(slab.allocate(8)).toBe(-1);
    slab.unpin(b);
    expect(slab.used).toBe(48);
    slab.release(a, 16);
    slab.release(c, 32);
    expect(slab.freeRanges()).toEqual([{ offset: 0, size: 64 }]);
    // Larger than the region: never.
    expect(slab.allocate(65)).toBe(-1);
  });
});
