/** The account's own row, as self-service reads it. */
import type { Core } from '@strapi/strapi';
import { USER_UID } from '../../platform/uids';
import type { UserRow } from './account.service';

/** The user row with its password hash (re-authentication needs it); null when the account is gone. */
export const accountRow = async (strapi: Core.Strapi, id: number): Promise<(UserRow & { documentId: string }) | null> =>
  (await strapi.db.query(USER_UID).findOne({ where: { id } })) as (UserRow & { documentId: string }) | null;
