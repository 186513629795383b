/** The host's user rows (users-permissions) as the accounts feature reads them: never written here. */
import type { Core } from '@strapi/strapi';
import { ROLE_UID, USER_UID } from '../../platform/uids';
import type { UserRow } from './account.service';

/** A Query Engine `where` on the users (a lifecycle event's, or a registration's identifier filter). */
export type UserWhere = object;

/** The local account whose e-mail is `email` or whose username is `identifier`. */
export const localUserByIdentifier = (strapi: Core.Strapi, email: string, identifier: string) =>
  strapi.db.query(USER_UID).findOne({ where: { provider: 'local', $or: [{ email }, { username: identifier }] } });

export const localUserByEmail = (strapi: Core.Strapi, email: string) => strapi.db.query(USER_UID).findOne({ where: { provider: 'local', email } });

export const countUsers = (strapi: Core.Strapi, where: UserWhere): Promise<number> => strapi.db.query(USER_UID).count({ where });

/** Whether an account other than `userId` has `email` as its address, or as its username in any case. */
export const emailTakenByAnother = async (strapi: Core.Strapi, email: string, userId: number) =>
  (await strapi.db.query(USER_UID).count({ where: { $or: [{ email }, { username: { $eqi: email } }], id: { $ne: userId } } })) > 0;

/** The users-permissions role of that type (a registration's default role). */
export const roleOfType = (strapi: Core.Strapi, type: string | undefined) => strapi.db.query(ROLE_UID).findOne({ where: { type } });

export const userIdOf = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(USER_UID).findOne({ where: { id }, select: ['id'] }) as Promise<{ id: number } | null>;

export const blockedStateOf = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(USER_UID).findOne({ where: { id }, select: ['id', 'blocked'] }) as Promise<{ id: number; blocked?: boolean | null } | null>;

export const emailOfUser = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(USER_UID).findOne({ where: { id }, select: ['email'] }) as Promise<{ email?: string } | null>;

export const idAndEmailOf = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(USER_UID).findOne({ select: ['id', 'email'], where: { id } }) as Promise<{ id: number; email: string } | null>;

/** The ids of the users matching `where`. */
export const idsOfUsers = async (strapi: Core.Strapi, where: UserWhere): Promise<number[]> =>
  ((await strapi.db.query(USER_UID).findMany({ where, select: ['id'] })) as { id: number }[]).map((user) => user.id);

/** The user row with its password hash (re-authentication needs it); null when the account is gone. */
export const accountRow = async (strapi: Core.Strapi, id: number): Promise<(UserRow & { documentId: string }) | null> =>
  (await strapi.db.query(USER_UID).findOne({ where: { id } })) as (UserRow & { documentId: string }) | null;
