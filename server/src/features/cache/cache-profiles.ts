/**
 * The routes whose answers the response cache may keep, as their route modules declare them (bootstrap passes the
 * declarations): one profile per route, by the Users & Permissions action it requires, shared by its entries.
 */
import { PLUGIN_ID, uid } from '../../platform/plugin-id';
import type { CacheDeclaration, CacheProfile } from './cache-entry';

export function cacheProfiles() {
  const profiles = new Map<string, CacheProfile>();
  return {
    declare(declarations: CacheDeclaration[]) {
      for (const { handler, cache } of declarations) {
        const action = `plugin::${PLUGIN_ID}.${handler}`;
        const { views } = cache;
        profiles.set(action, {
          type: handler.split('.')[0],
          actions: [action],
          scopes: cache.scopes,
          ...(views ? { counted: { uid: uid(views.type), kind: views.kind } } : {}),
        });
      }
    },

    /** The profile of the route that requires exactly these actions, if it declared one. */
    profileOf(actions: readonly string[]): CacheProfile | undefined {
      return actions.length === 1 ? profiles.get(actions[0]) : undefined;
    },
  };
}
