/** The response cache's hits and misses per content type, for the admin's cache card (since the start or a clear). */
export class HitStats {
  private readonly byType = new Map<string, { hits: number; misses: number }>();

  hit(type: string) {
    this.of(type).hits += 1;
  }

  miss(type: string) {
    this.of(type).misses += 1;
  }

  /** Every type's hits, misses and hit ratio, by type name. */
  list() {
    return [...this.byType.entries()]
      .map(([type, { hits, misses }]) => ({ type, hits, misses, hitRatio: hits + misses === 0 ? 0 : hits / (hits + misses) }))
      .sort((a, b) => a.type.localeCompare(b.type));
  }

  clear() {
    this.byType.clear();
  }

  private of(type: string) {
    let found = this.byType.get(type);
    if (!found) this.byType.set(type, (found = { hits: 0, misses: 0 }));
    return found;
  }
}
