/**
 * Coherence of the response cache across instances sharing the database (docs/caching.md): a version stamp per
 * scope in the database (features/cache/versions.data.ts). Every write raises its scope's version once it has
 * committed (or inside its transaction); every cached read first reads all versions (one tiny SELECT) and a cached
 * entry counts only if the versions it was computed under are still the current ones.
 *
 * Why a reader never gets stale data: a reader reads the versions *before* it computes a response, and stores the
 * response under those versions. A write raises the version after its data is committed and before it returns. So
 * any read that starts after a write has returned sees the raised version, and every entry computed under an older
 * version (whatever data it saw) no longer counts.
 */
import { AsyncLocalStorage } from 'async_hooks';
import type { Core } from '@strapi/strapi';
import type { CacheScope } from '../../platform/cache-scopes';
import { bumpVersions, currentTransaction, ensureVersionsTable, readVersions } from './versions.data';
import { sharedReads } from './shared-reads';

/** The scopes (platform/cache-scopes.ts says which writes raise which). */
export const CACHE_SCOPES: readonly CacheScope[] = ['content', 'comments', 'permissions', 'sessions', 'views'];
export type { CacheScope };

export type Versions = Map<string, number>;

/** A Document Service call's written scopes; `open` until the call has returned and raises them. */
interface Touched {
  scopes: Set<CacheScope>;
  open: boolean;
}

const cacheVersions = ({ strapi }: { strapi: Core.Strapi }) => {
  /** Scopes written during a Document Service call, raised once when the call returns (features/cache/cache-invalidation.document-middleware.ts). */
  const pending = new AsyncLocalStorage<Touched>();

  /** Adds `scopes` to the set of the Document Service call still running here, if any; whether there was one. */
  const joinRunningCall = (scopes: readonly CacheScope[]): boolean => {
    const touched = pending.getStore();
    if (!touched?.open) return false;
    for (const scope of scopes) touched.scopes.add(scope);
    return true;
  };

  // One SELECT for the requests of a turn, and a request never shares a SELECT that started before it arrived (that
  // one might miss a write that returned in between): it waits for the next one (shared-reads.ts).
  const shared = sharedReads<Versions>();

  return {
    async init() {
      await ensureVersionsTable(strapi, CACHE_SCOPES);
    },

    /** Every scope's current version, read after this call was made. */
    read(): Promise<Versions> {
      return shared('versions', () => readVersions(strapi));
    },

    /** Runs a Document Service call, then raises the scopes its writes touched, once (after its transaction). */
    async around<T>(call: () => Promise<T>, scopes: CacheScope[]): Promise<T> {
      if (joinRunningCall(scopes)) return call();
      const touched: Touched = { scopes: new Set(scopes), open: true };
      try {
        return await pending.run(touched, call);
      } finally {
        // Work the call left running (a background job) raises its own writes from now on.
        touched.open = false;
        // Still inside a caller's transaction: raised in it, so the versions commit with the data.
        await bumpVersions(strapi, [...touched.scopes], await currentTransaction(strapi));
      }
    },

    /**
     * A write to `scopes` happened: inside a Document Service call still running, raised when it returns; inside a
     * transaction, raised in it (it commits with the write); otherwise raised now. Awaited by the writer, so it has
     * landed before the write returns.
     */
    async invalidate(...scopes: CacheScope[]) {
      if (joinRunningCall(scopes)) return;
      await bumpVersions(strapi, scopes, await currentTransaction(strapi));
    },
  };
};

export type CacheVersionsService = ReturnType<typeof cacheVersions>;
export default cacheVersions;
