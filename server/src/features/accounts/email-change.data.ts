/** The e-mail change rows (features/accounts/email-change.ts): a pending change per account, then the done one with its revert token. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const UID = uid('email-change');

export interface ChangeRow {
  id: number;
  userId: number;
  stage: 'pending' | 'done';
  oldEmail: string;
  newEmail: string;
  tokenHash: string | null;
  expiresAt: string | number;
  /** When the row was written: for a done change, when the address changed. */
  createdAt: string | number | Date;
}

export const deletePendingChangesOf = (strapi: Core.Strapi, userId: number) =>
  strapi.db.query(UID).deleteMany({ where: { userId, stage: 'pending' } });

export const createPendingChange = (strapi: Core.Strapi, data: { userId: number; oldEmail: string; newEmail: string; expiresAt: number }) =>
  strapi.db.query(UID).create({ data: { userId: data.userId, stage: 'pending', oldEmail: data.oldEmail, newEmail: data.newEmail, expiresAt: data.expiresAt } });

/** The account's newest pending change still live at `now`. */
export const livePendingChangeOf = (strapi: Core.Strapi, userId: number, now: number) =>
  strapi.db.query(UID).findOne({
    where: { userId, stage: 'pending', expiresAt: { $gt: now } },
    orderBy: { id: 'desc' },
  }) as Promise<ChangeRow | null>;

export const createDoneChange = (
  strapi: Core.Strapi,
  data: { userId: number; oldEmail: string; newEmail: string; tokenHash: string; expiresAt: number; createdAt: Date },
) =>
  strapi.db.query(UID).create({
    data: {
      userId: data.userId,
      stage: 'done',
      oldEmail: data.oldEmail,
      newEmail: data.newEmail,
      tokenHash: data.tokenHash,
      expiresAt: data.expiresAt,
      createdAt: data.createdAt,
    },
  });

/** The done change whose revert token has that hash. */
export const doneChangeByTokenHash = (strapi: Core.Strapi, tokenHash: string) =>
  strapi.db.query(UID).findOne({ where: { tokenHash, stage: 'done' } }) as Promise<ChangeRow | null>;

/** Deletes the row while it still holds that token: true when this call did (a revert token works once). */
export const takeDoneChange = async (strapi: Core.Strapi, id: number, tokenHash: string | null): Promise<boolean> => {
  const { count } = await strapi.db.query(UID).deleteMany({ where: { id, tokenHash } });
  return count === 1;
};

export const deleteChangesOf = (strapi: Core.Strapi, userId: number) => strapi.db.query(UID).deleteMany({ where: { userId } });

/** Deletes rows expired by `now`; returns how many. */
export const deleteExpiredChanges = async (strapi: Core.Strapi, now: number): Promise<number> => {
  const { count } = await strapi.db.query(UID).deleteMany({ where: { expiresAt: { $lte: now } } });
  return count;
};
