/**
 * What the response cache's entries have in common, kept once: per route profile and content type, the versions of
 * its scopes the answers were computed under (a `Shared`), named in the entries' table by a small id. Only the newest
 * one per profile and content type is handed to new entries; an older one lives as long as entries hold it, then its
 * id is free for another.
 */
import type { CacheProfile, Shared } from './cache-entry';

export class SharedStamps {
  /** The newest per profile and content type. */
  private readonly newest = new Map<string, Shared>();
  /** Every one some entry holds (or the newest), by id. */
  private readonly byId: (Shared | undefined)[] = [];
  private readonly freeIds: number[] = [];

  /** The newest for `profile` and `contentType` under `versions` (a new one when the versions moved). */
  of(profile: CacheProfile, contentType: string, versions: Map<string, number>): Shared {
    const name = `${profile.type}\n${profile.actions.join(',')}\n${profile.scopes.join(',')}\n${contentType}`;
    const found = this.newest.get(name);
    if (found?.profile === profile && found.stamp.scopes.every((scope, i) => versions.get(scope) === found.stamp.versions[i])) {
      return found;
    }
    const id = this.freeIds.pop() ?? this.byId.length;
    const made: Shared = {
      id,
      refs: 0,
      name,
      profile,
      contentType,
      stamp: { scopes: profile.scopes, versions: profile.scopes.map((scope) => versions.get(scope) ?? 0) },
    };
    this.byId[id] = made;
    this.newest.set(name, made);
    // The one it replaces goes once no entry holds it.
    if (found && found.refs <= 0) this.forget(found);
    return made;
  }

  /** The one with this id. */
  get(id: number): Shared | undefined {
    return this.byId[id];
  }

  /**
   * Whether `shared` may still be given to a new entry: it is still registered under its id. One handed out before
   * an `await` (a streamed answer kept once it has ended) may have been replaced meanwhile and its id given to
   * another; an entry kept under it would then be read under the other's versions.
   */
  live(shared: Shared) {
    return this.byId[shared.id] === shared;
  }

  /** An entry now holds `shared`. */
  hold(shared: Shared) {
    shared.refs += 1;
  }

  /** An entry holding the one with id `id` is gone. */
  drop(id: number) {
    const found = this.byId[id];
    if (!found) return;
    found.refs -= 1;
    if (found.refs <= 0 && this.newest.get(found.name) !== found) this.forget(found);
  }

  /** Forgets them all (the cache was cleared); any still held elsewhere is no longer `live`. */
  clear() {
    this.newest.clear();
    this.byId.length = 0;
    this.freeIds.length = 0;
  }

  private forget(shared: Shared) {
    this.byId[shared.id] = undefined;
    this.freeIds.push(shared.id);
  }
}
