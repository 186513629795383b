/**
 * Values derived from the content and kept in this process's memory until the version stamp of one of their scopes
 * moves (`content` by default; features/cache/cache-versions.ts): the same coherence as the response cache, whatever
 * `cache.enabled` says. A value is stored under the version read *before* it was computed, and used only while that
 * is still the current version, so after any watched write has returned, on any instance, no value computed before
 * it is used again (docs/caching.md#why-it-is-never-stale). Only the current version's values are kept, at most
 * `limit` of them. With several scopes the version is the sum of theirs: each stamp only grows, so the sum grows
 * whenever one of them does and is the same only when all are.
 */
import type { Core } from '@strapi/strapi';
import type { CacheScope } from '../../platform/cache-scopes';
import { getService } from '../../platform/get-service';

export interface KeptByVersion<V> {
  /** The content version now (one small SELECT, coalesced with the other readers'). */
  version(): Promise<number>;
  /** The value kept for `key` under `version`, if any. */
  get(version: number, key: string): V | undefined;
  /** Keeps `value` for `key` under `version` (ignored when a newer version has been seen). */
  set(version: number, key: string, value: V): void;
}

export const keptByVersion = <V>(
  strapi: Core.Strapi,
  limit: number,
  scopes: readonly CacheScope[] = ['content'],
): KeptByVersion<V> => {
  let current = -1;
  const values = new Map<string, V>();
  const moveTo = (version: number) => {
    if (version > current) {
      current = version;
      values.clear();
    }
  };
  return {
    async version() {
      const versions = await getService(strapi, 'cache-versions').read();
      return scopes.reduce((sum, scope) => sum + (versions.get(scope) ?? 0), 0);
    },
    get(version, key) {
      moveTo(version);
      return version === current ? values.get(key) : undefined;
    },
    set(version, key, value) {
      moveTo(version);
      if (version !== current) return;
      if (!values.has(key) && values.size >= limit) values.delete(values.keys().next().value as string);
      values.set(key, value);
    },
  };
};
