/**
 * First-start grants of the plugin's Users & Permissions actions: the route modules name, per role type, the actions
 * granted on first start (routes/content-api, passed in by bootstrap/).
 * Each grant is applied once per database and remembered in the plugin store, so an action an
 * administrator revoked is never granted again, and an action added by a later version is granted once.
 */
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from './plugin-id';
import { grantAction, roleOfType } from './permissions.data';

/** Actions (`<controller>.<action>`) per Users & Permissions role type (`public`, `authenticated`). */
export type Grants = Record<string, readonly string[]>;

const permissions = ({ strapi }: { strapi: Core.Strapi }) => {
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID, key: 'granted-actions' });

  return {
    /** Grants every default action not granted before; returns the `role:action` keys granted now. */
    async grantDefaults(grants: Grants): Promise<string[]> {
      const done = new Set<string>(((await store().get({})) as string[] | null) ?? []);
      const granted: string[] = [];

      for (const [type, actions] of Object.entries(grants)) {
        const pending = actions.filter((action) => !done.has(`${type}:${action}`));
        if (pending.length === 0) continue;
        const role = await roleOfType(strapi, type);
        if (!role) continue;

        for (const action of pending) {
          await grantAction(strapi, role.id, `plugin::${PLUGIN_ID}.${action}`);
          done.add(`${type}:${action}`);
          granted.push(`${type}:${action}`);
        }
      }

      if (granted.length > 0) await store().set({ value: [...done] });
      return granted;
    },
  };
};

export type PermissionsService = ReturnType<typeof permissions>;
export default permissions;
