/**
 * Whether the Public role holds a route's actions, for the response cache: the role's actions are read once per
 * permissions version (re-read when it moved), not at every hit.
 */
import type { Core } from '@strapi/strapi';
import { publicPermissionRows } from './public-actions.data';

export function publicActions(strapi: Core.Strapi) {
  let known: { version: number; actions: Set<string> } | undefined;
  return {
    /** Whether the Public role holds every one of `actions`, as of `permissionsVersion`. */
    async may(actions: readonly string[], permissionsVersion: number): Promise<boolean> {
      if (known?.version !== permissionsVersion) {
        const rows = await publicPermissionRows(strapi);
        known = { version: permissionsVersion, actions: new Set(rows.map((row) => row.action)) };
      }
      const allowed = known.actions;
      return actions.every((action) => allowed.has(action));
    },
    forget() {
      known = undefined;
    },
  };
}
