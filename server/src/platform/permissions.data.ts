/** The Users & Permissions rows the first-start grants read and write (platform/permissions.ts). */
import type { Core } from '@strapi/strapi';
import { PERMISSION_UID, ROLE_UID } from './uids';

/** The role of that type (`public`, `authenticated`), if the host has it. */
export const roleOfType = (strapi: Core.Strapi, type: string) => strapi.db.query(ROLE_UID).findOne({ where: { type } });

/** Grants `action` to the role unless it has it already. */
export const grantAction = async (strapi: Core.Strapi, roleId: number, action: string): Promise<void> => {
  const existing = await strapi.db.query(PERMISSION_UID).findOne({ where: { action, role: roleId } });
  if (!existing) await strapi.db.query(PERMISSION_UID).create({ data: { action, role: roleId } });
};

/** How many Users & Permissions roles exist (none before the plugin initialized). */
export const countRoles = (strapi: Core.Strapi): Promise<number> => strapi.db.query(ROLE_UID).count();
