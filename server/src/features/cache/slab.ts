/**
 * The region the response cache keeps its bodies in (docs/caching.md, "Bound"): one buffer of `cache.maxBytes`,
 * allocated once and never grown, and a first-fit allocator over it whose free ranges are kept sorted by offset and
 * merged with their neighbours when freed. Bodies kept as buffers of their own, allocated with malloc outside V8,
 * left the memory freed by eviction resident among the live ones (the allocator only returns memory from the top of
 * its heap); in one region, a freed range is simply used again by the next body.
 *
 * A range is reused only once nothing can still read it: its owner releases it (the entry was evicted or replaced),
 * and every answer still being written from it has dropped its pin. Until then it stays counted as used.
 *
 * A range is its offset (and its size, `sizeOf` the length asked for): the allocator keeps no object per range, only
 * one per range being sent (its pins), so a cache of many small entries leaves no object per entry on V8's heap.
 */

/** Ranges start on this boundary, so tiny leftovers do not split the free space into unusable slivers. */
const ALIGN = 8;

interface Free {
  offset: number;
  size: number;
}

/** A range answers are being written from: how many, and whether its owner has let it go meanwhile. */
interface Pinned {
  pins: number;
  /** The range's size once its owner released it (freed when `pins` drops to zero); 0 while it is still owned. */
  released: number;
}

export class Slab {
  readonly region: Buffer;
  /** Free ranges by offset, never two adjacent ones (they are merged). */
  private readonly free: Free[];
  /** The ranges being sent, by offset. */
  private readonly pinned = new Map<number, Pinned>();
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

  /** The offset of a range of `sizeOf(length)` bytes (the first free one that fits), or -1 when none does. */
  allocate(length: number): number {
    const size = Slab.sizeOf(length);
    const { free } = this;
    for (let i = 0; i < free.length; i += 1) {
      const hole = free[i];
      if (hole.size < size) continue;
      const { offset } = hole;
      if (hole.size === size) free.splice(i, 1);
      else {
        hole.offset += size;
        hole.size -= size;
      }
      this.usedBytes += size;
      return offset;
    }
    return -1;
  }

  /** `length` bytes from `offset`, a view of the region (no copy). */
  view(offset: number, length: number): Buffer {
    return this.region.subarray(offset, offset + length);
  }

  /** Pins the range at `offset` for an answer being written from it: its release, once, however often it is called. */
  hold(offset: number): () => void {
    this.pin(offset);
    let pinned = true;
    return () => {
      if (!pinned) return;
      pinned = false;
      this.unpin(offset);
    };
  }

  /** An answer is being written from the range at `offset`: it stays intact until `unpin`. */
  pin(offset: number) {
    const found = this.pinned.get(offset);
    if (found) found.pins += 1;
    else this.pinned.set(offset, { pins: 1, released: 0 });
  }

  unpin(offset: number) {
    const found = this.pinned.get(offset);
    if (!found) return;
    found.pins -= 1;
    if (found.pins > 0) return;
    this.pinned.delete(offset);
    if (found.released > 0) this.reclaim(offset, found.released);
  }

  /** Answers being written from the range at `offset`. */
  pins(offset: number) {
    return this.pinned.get(offset)?.pins ?? 0;
  }

  /** The owner is done with the range at `offset` of `size` bytes: freed now, or when its last pin drops. */
  release(offset: number, size: number) {
    const found = this.pinned.get(offset);
    if (found) found.released = size;
    else this.reclaim(offset, size);
  }

  /** The free ranges (offset, size), in order: for tests and stats. */
  freeRanges(): readonly Readonly<Free>[] {
    return this.free.map(({ offset, size }) => ({ offset, size }));
  }

  private reclaim(offset: number, size: number) {
    this.usedBytes -= size;
    const { free } = this;
    // The first free range after this one (binary search: the list is sorted by offset).
    let low = 0;
    let high = free.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (free[middle].offset < offset) low = middle + 1;
      else high = middle;
    }
    const before = low > 0 ? free[low - 1] : undefined;
    const after = low < free.length ? free[low] : undefined;
    const end = offset + size;
    if (before && before.offset + before.size === offset) {
      before.size += size;
      if (after && after.offset === end) {
        before.size += after.size;
        free.splice(low, 1);
      }
    } else if (after && after.offset === end) {
      after.offset = offset;
      after.size += size;
    } else {
      free.splice(low, 0, { offset, size });
    }
  }
}
