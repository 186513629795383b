/**
 * The response cache's entries as one table of typed arrays (docs/caching.md, "Bound"), not an object per entry: for
 * each entry (a slot) where its range starts in the region and how long its key, ETag and body are there (the key and
 * the ETag are kept in the region before the body: no string per entry either), what it costs, which shared profile
 * and versions it was computed under (a small id), its place in the least-recently-used order (a doubly linked list
 * of slot numbers) and in the key index (a hash table chained through slot numbers). The columns' memory is outside
 * V8's heap, allocated when the table grows (doubling) or shrinks (once fewer than a quarter of its slots are in use),
 * so entries stored and evicted by the ten thousand leave no objects behind on V8's heap pages.
 *
 * A slot's `serial` (never reused) tells a caller holding a slot number across an `await` whether it still names the
 * entry it was given: the entry may have been removed, or the table shrunk and its slots renumbered.
 */

const MIN_CAPACITY = 1024;
const NONE = -1;

/** The columns of an entry's own fields and their array types: `resize` makes them, and copies them over, from this. */
const FIELD_COLUMNS = {
  hash: Int32Array,
  offset: Uint32Array,
  keyLength: Uint32Array,
  etagLength: Uint16Array,
  bodyLength: Uint32Array,
  cost: Uint32Array,
  shared: Uint32Array,
  flags: Uint8Array,
  serial: Float64Array,
} as const;
type FieldColumn = keyof typeof FIELD_COLUMNS;
const FIELD_NAMES = Object.keys(FIELD_COLUMNS) as FieldColumn[];
/** The order of use (`prev`, `next`) and the index (`chain`, `buckets`): 32-bit slot numbers. */
const LINK_COLUMNS = 4;
type Column = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array;

/** The columns' bytes per slot. */
export const BYTES_PER_SLOT = FIELD_NAMES.reduce((sum, name) => sum + FIELD_COLUMNS[name].BYTES_PER_ELEMENT, 0) + 4 * LINK_COLUMNS;

/** The key's hash (FNV-1a over its UTF-16 code units): which chain of the index it is in. */
export const keyHash = (key: string) => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
};

/** What a slot holds, as `add` takes it. */
export interface SlotFields {
  hash: number;
  offset: number;
  keyLength: number;
  etagLength: number;
  bodyLength: number;
  cost: number;
  shared: number;
  flags: number;
}

export class EntryTable {
  /** Slots in use. */
  count = 0;
  private capacity = 0;
  private nextSerial = 1;
  /** The least recently used slot, and the most recently used. */
  private head = NONE;
  private tail = NONE;
  /** The first unused slot (unused slots are chained through `next`). */
  private freeHead = NONE;
  // The columns, one entry per slot.
  hash!: Int32Array;
  offset!: Uint32Array;
  keyLength!: Uint32Array;
  etagLength!: Uint16Array;
  bodyLength!: Uint32Array;
  cost!: Uint32Array;
  shared!: Uint32Array;
  flags!: Uint8Array;
  /** 0 for an unused slot; otherwise a number no other entry ever had. */
  serial!: Float64Array;
  private prev!: Int32Array;
  private next!: Int32Array;
  /** The next slot in the same index chain. */
  private chain!: Int32Array;
  /** The index: per hash bucket (as many as slots), its first slot. */
  private buckets!: Int32Array;
  /** The key being looked up, as UTF-8, to compare with the keys in the region. */
  private scratch = Buffer.allocUnsafeSlow(256);

  /** `region`: where the keys are, at each slot's offset. */
  constructor(private readonly region: Buffer) {
    this.resize(MIN_CAPACITY, undefined);
  }

  /** The bytes the table's columns take (outside V8's heap). */
  get bytes() {
    return this.capacity * BYTES_PER_SLOT;
  }

  /** The slot holding `key` (whose hash is `hash`), or -1. */
  find(key: string, hash: number): number {
    let slot = this.buckets[hash & (this.capacity - 1)];
    let length = -1;
    while (slot !== NONE) {
      if (this.hash[slot] === hash) {
        if (length < 0) length = this.encode(key);
        const at = this.offset[slot];
        if (this.keyLength[slot] === length && this.region.compare(this.scratch, 0, length, at, at + length) === 0) return slot;
      }
      slot = this.chain[slot];
    }
    return NONE;
  }

  /** Whether `slot` still holds the entry whose serial is `serial`. */
  holds(slot: number, serial: number) {
    return slot >= 0 && slot < this.capacity && this.serial[slot] === serial;
  }

  /** A new entry, the most recently used: its slot. */
  add(fields: SlotFields): number {
    if (this.freeHead === NONE) this.resize(this.capacity * 2, undefined);
    const slot = this.freeHead;
    this.freeHead = this.next[slot];
    this.hash[slot] = fields.hash;
    this.offset[slot] = fields.offset;
    this.keyLength[slot] = fields.keyLength;
    this.etagLength[slot] = fields.etagLength;
    this.bodyLength[slot] = fields.bodyLength;
    this.cost[slot] = fields.cost;
    this.shared[slot] = fields.shared;
    this.flags[slot] = fields.flags;
    this.serial[slot] = this.nextSerial;
    this.nextSerial += 1;
    this.link(slot);
    const bucket = fields.hash & (this.capacity - 1);
    this.chain[slot] = this.buckets[bucket];
    this.buckets[bucket] = slot;
    this.count += 1;
    return slot;
  }

  /** Forgets `slot`'s entry (the caller has released its range). */
  remove(slot: number) {
    this.unlink(slot);
    const bucket = this.hash[slot] & (this.capacity - 1);
    if (this.buckets[bucket] === slot) this.buckets[bucket] = this.chain[slot];
    else {
      let at = this.buckets[bucket];
      while (this.chain[at] !== slot) at = this.chain[at];
      this.chain[at] = this.chain[slot];
    }
    this.serial[slot] = 0;
    this.next[slot] = this.freeHead;
    this.freeHead = slot;
    this.count -= 1;
  }

  /** `slot` was just used: it goes last in the eviction order. */
  touch(slot: number) {
    if (this.tail === slot) return;
    this.unlink(slot);
    this.link(slot);
  }

  /** The least recently used slot other than `keep`, or -1. */
  oldest(keep = NONE): number {
    const first = this.head;
    return first === keep && first !== NONE ? this.next[first] : first;
  }

  /** The slots in use, least recently used first. */
  slots(): number[] {
    const out: number[] = [];
    for (let slot = this.head; slot !== NONE; slot = this.next[slot]) out.push(slot);
    return out;
  }

  /** Whether the table should shrink: fewer than a quarter of its slots in use. */
  get sparse() {
    return this.capacity > MIN_CAPACITY && this.count * 4 < this.capacity;
  }

  /**
   * Shrinks the table to fit its entries (renumbering them, in use order: serials are kept, so a slot number held
   * across an `await` no longer `holds`); `moved(from, to)` is called for each entry.
   */
  shrink(moved: (from: number, to: number) => void) {
    let capacity = MIN_CAPACITY;
    while (capacity < this.count * 2) capacity *= 2;
    this.resize(capacity, moved);
  }

  /** Empties the table and gives its memory back. */
  reset() {
    this.count = 0;
    this.head = NONE;
    this.tail = NONE;
    this.capacity = 0;
    this.resize(MIN_CAPACITY, undefined);
  }

  /** Writes `key` into `scratch` as UTF-8: its length. */
  private encode(key: string) {
    const length = Buffer.byteLength(key);
    if (length > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(Math.max(length, this.scratch.length * 2));
    this.scratch.write(key, 0, length, 'utf8');
    return length;
  }

  private link(slot: number) {
    this.prev[slot] = this.tail;
    this.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  private unlink(slot: number) {
    const before = this.prev[slot];
    const after = this.next[slot];
    if (before === NONE) this.head = after;
    else this.next[before] = after;
    if (after === NONE) this.tail = before;
    else this.prev[after] = before;
  }

  /**
   * New columns of `capacity` slots and the index rebuilt. Growing (no slot free) keeps every slot number; shrinking
   * renumbers the entries in use order (slots 0, 1, …) and tells `moved` each entry's new slot.
   */
  private resize(capacity: number, moved: ((from: number, to: number) => void) | undefined) {
    const grow = capacity > this.capacity && this.freeHead === NONE;
    const order = this.capacity > 0 ? this.slots() : [];
    const fields = this as unknown as Record<FieldColumn, Column>;
    const old = Object.fromEntries(FIELD_NAMES.map((name) => [name, fields[name]])) as Record<FieldColumn, Column>;
    const [oldPrev, oldNext] = [this.prev, this.next];
    const previous = this.capacity;
    for (const name of FIELD_NAMES) fields[name] = new FIELD_COLUMNS[name](capacity);
    this.prev = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.chain = new Int32Array(capacity);
    this.buckets = new Int32Array(capacity).fill(NONE);
    this.capacity = capacity;
    const index = (slot: number) => {
      const bucket = this.hash[slot] & (capacity - 1);
      this.chain[slot] = this.buckets[bucket];
      this.buckets[bucket] = slot;
    };
    this.freeHead = NONE;
    if (grow && previous > 0) {
      // Every slot was in use: same numbers, same order; the new slots are free.
      for (const name of FIELD_NAMES) fields[name].set(old[name]);
      this.prev.set(oldPrev);
      this.next.set(oldNext);
      for (let slot = 0; slot < previous; slot += 1) index(slot);
      for (let slot = capacity - 1; slot >= previous; slot -= 1) {
        this.next[slot] = this.freeHead;
        this.freeHead = slot;
      }
      return;
    }
    this.head = NONE;
    this.tail = NONE;
    order.forEach((from, to) => {
      for (const name of FIELD_NAMES) fields[name][to] = old[name][from];
      this.link(to);
      index(to);
      moved?.(from, to);
    });
    // The unused slots, chained.
    for (let slot = capacity - 1; slot >= order.length; slot -= 1) {
      this.next[slot] = this.freeHead;
      this.freeHead = slot;
    }
  }
}
