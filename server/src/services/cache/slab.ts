/**
 * The region the response cache keeps its bodies in (docs/caching.md, "Bound"): one buffer of `cache.maxBytes`,
 * allocated once and never grown, and a first-fit allocator over it whose free ranges are kept sorted by offset and
 * merged with their neighbours when freed. Bodies kept as buffers of their own, allocated with malloc outside V8,
 * left the memory freed by eviction resident among the live ones (the allocator only returns memory from the top of
 * its heap); in one region, a freed range is simply used again by the next body.
 *
 * A range is reused only once nothing can still read it: its owner releases it (the entry was evicted or replaced),
 * and every answer still being written from it has dropped its pin. Until then it stays counted as used.
 */

/** Ranges start on this boundary, so tiny leftovers do not split the free space into unusable slivers. */
const ALIGN = 8;

export interface Range {
  readonly offset: number;
  /** The bytes the range holds in the region (the length asked for, rounded up to `ALIGN`). */
  readonly size: number;
  /** Answers still being written from this range. */
  pins: number;
  /** Its owner let it go: freed when `pins` drops to zero. */
  released: boolean;
  /** Back in the free space: nothing may read it any more. */
  freed: boolean;
}

interface Free {
  offset: number;
  size: number;
}

export class Slab {
  readonly region: Buffer;
  /** Free ranges by offset, never two adjacent ones (they are merged). */
  private readonly free: Free[];
  private usedBytes = 0;

  constructor(readonly capacity: number) {
    // Not zero-filled: pages become resident only once a body is written into them.
    this.region = Buffer.allocUnsafeSlow(capacity);
    this.free = capacity > 0 ? [{ offset: 0, size: capacity }] : [];
  }

  /** The region's bytes held by ranges not yet freed (pinned ones an owner released included). */
  get used() {
    return this.usedBytes;
  }

  /** A region of `capacity` bytes, or an empty one (nothing fits) when the system refuses that much (`refused`: why). */
  static orEmpty(capacity: number, refused: (error: Error) => void) {
    try {
      return new Slab(capacity);
    } catch (error) {
      refused(error as Error);
      return new Slab(0);
    }
  }

  /** The size a request of `length` bytes takes in the region. */
  static sizeOf(length: number) {
    return Math.max(ALIGN, Math.ceil(length / ALIGN) * ALIGN);
  }

  /** A range of at least `length` bytes (the first free one that fits), or undefined when none does. */
  allocate(length: number): Range | undefined {
    const size = Slab.sizeOf(length);
    const { free } = this;
    for (let i = 0; i < free.length; i += 1) {
      const hole = free[i];
      if (hole.size < size) continue;
      const range: Range = { offset: hole.offset, size, pins: 0, released: false, freed: false };
      if (hole.size === size) free.splice(i, 1);
      else {
        hole.offset += size;
        hole.size -= size;
      }
      this.usedBytes += size;
      return range;
    }
    return undefined;
  }

  /** The first `length` bytes of `range`, a view of the region (no copy). */
  view(range: Range, length: number): Buffer {
    return this.region.subarray(range.offset, range.offset + length);
  }

  /** An answer is being written from `range`: it stays intact until `unpin`. */
  pin(range: Range) {
    range.pins += 1;
  }

  unpin(range: Range) {
    range.pins -= 1;
    if (range.pins === 0 && range.released) this.reclaim(range);
  }

  /** The owner is done with `range`: freed now, or when its last pin drops. */
  release(range: Range) {
    if (range.released) return;
    range.released = true;
    if (range.pins === 0) this.reclaim(range);
  }

  /** The free ranges (offset, size), in order: for tests and stats. */
  freeRanges(): readonly Readonly<Free>[] {
    return this.free.map(({ offset, size }) => ({ offset, size }));
  }

  private reclaim(range: Range) {
    if (range.freed) return;
    range.freed = true;
    this.usedBytes -= range.size;
    const { free } = this;
    // The first free range after this one (binary search: the list is sorted by offset).
    let low = 0;
    let high = free.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (free[middle].offset < range.offset) low = middle + 1;
      else high = middle;
    }
    const before = low > 0 ? free[low - 1] : undefined;
    const after = low < free.length ? free[low] : undefined;
    const end = range.offset + range.size;
    if (before && before.offset + before.size === range.offset) {
      before.size += range.size;
      if (after && after.offset === end) {
        before.size += after.size;
        free.splice(low, 1);
      }
    } else if (after && after.offset === end) {
      after.offset = range.offset;
      after.size += range.size;
    } else {
      free.splice(low, 0, { offset: range.offset, size: range.size });
    }
  }
}
