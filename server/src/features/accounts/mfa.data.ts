/** The second-factor rows' single-use steps that the query engine cannot do atomically. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { tableOf } from '../../platform/columns';

const FACTOR = uid('mfa-factor');
const RECOVERY = uid('mfa-recovery-code');
const CHALLENGE = uid('mfa-challenge');

/**
 * Records `step` as the account's last used TOTP time step, only when it is later than the one recorded: true when
 * it was, so a code (and any code of an earlier step) is accepted once, also by concurrent requests.
 */
export const claimTotpStep = async (strapi: Core.Strapi, userId: number, step: number): Promise<boolean> => {
  const { table, column } = tableOf(strapi, FACTOR);
  const updated: number = await strapi.db
    .connection(table)
    .where(column('userId'), userId)
    .andWhere((where) => where.whereNull(column('lastStep')).orWhere(column('lastStep'), '<', step))
    .update({ [column('lastStep')]: step });
  return updated === 1;
};

/**
 * Counts one more wrong code in the account's run; the call that brings the run to `threshold` locks the second
 * factor until `lockUntil` and starts a new run: true for that call only, so concurrent wrong codes lock (and mail) once.
 */
export const countWrongCode = async (strapi: Core.Strapi, userId: number, threshold: number, lockUntil: number): Promise<boolean> => {
  const { table, column } = tableOf(strapi, FACTOR);
  // A row from before the column existed may hold NULL.
  await strapi.db
    .connection(table)
    .where(column('userId'), userId)
    .update({ [column('failedCodes')]: strapi.db.connection.raw('COALESCE(??, 0) + 1', [column('failedCodes')]) });
  const locked: number = await strapi.db
    .connection(table)
    .where(column('userId'), userId)
    .andWhere(column('failedCodes'), '>=', threshold)
    .update({ [column('failedCodes')]: 0, [column('lockedUntil')]: lockUntil });
  return locked === 1;
};

/** A right code ends the account's run of wrong ones. */
export const clearWrongCodes = async (strapi: Core.Strapi, userId: number): Promise<void> => {
  const { table, column } = tableOf(strapi, FACTOR);
  await strapi.db.connection(table).where(column('userId'), userId).andWhere(column('failedCodes'), '>', 0).update({ [column('failedCodes')]: 0 });
};

/** Deletes the account's recovery code of that hash: true when this call used it up. */
export const useRecoveryCode = async (strapi: Core.Strapi, userId: number, codeHash: string): Promise<boolean> => {
  const { table, column } = tableOf(strapi, RECOVERY);
  const deleted: number = await strapi.db.connection(table).where(column('userId'), userId).andWhere(column('codeHash'), codeHash).delete();
  return deleted === 1;
};

/** Takes one of the pending login's `maxAttempts` tries while it lives: true when one was left. */
export const claimChallengeAttempt = async (strapi: Core.Strapi, id: number, maxAttempts: number, now: number): Promise<boolean> => {
  const { table, column } = tableOf(strapi, CHALLENGE);
  const claimed: number = await strapi.db
    .connection(table)
    .where(column('id'), id)
    .andWhere(column('attempts'), '<', maxAttempts)
    .andWhere(column('expiresAt'), '>', now)
    .increment(column('attempts'), 1);
  return claimed === 1;
};

/** Deletes the pending login: true when this call did (it finishes once). */
export const endChallenge = async (strapi: Core.Strapi, id: number): Promise<boolean> => {
  const { table, column } = tableOf(strapi, CHALLENGE);
  return (await strapi.db.connection(table).where(column('id'), id).delete()) === 1;
};

/** Deletes a WebAuthn challenge row: true when this call did, so a challenge is verified once. */
export const takeWebauthnChallenge = async (strapi: Core.Strapi, id: number): Promise<boolean> => {
  const { table, column } = tableOf(strapi, uid('webauthn-challenge'));
  return (await strapi.db.connection(table).where(column('id'), id).delete()) === 1;
};

export interface FactorRow {
  id: number;
  userId: number;
  secret?: string | null;
  pendingSecret?: string | null;
  enabledAt?: number | string | null;
  failedCodes?: number | null;
  lockedUntil?: number | string | null;
}

export interface ChallengeRow {
  id: number;
  userId: number;
  expiresAt: number | string;
  attempts: number;
}

/** The account's second-factor row (enabled, or a setup not yet confirmed), if any. */
export const factorOf = (strapi: Core.Strapi, userId: number) =>
  strapi.db.query(FACTOR).findOne({ where: { userId } }) as Promise<FactorRow | null>;

/** A first setup: a factor row holding only the secret being enabled. */
export const createPendingFactor = (strapi: Core.Strapi, userId: number, pendingSecret: string) =>
  strapi.db.query(FACTOR).create({ data: { userId, pendingSecret } });

/** A setup restarted: the row's secret being enabled replaced. */
export const setPendingSecret = (strapi: Core.Strapi, factorId: number, pendingSecret: string) =>
  strapi.db.query(FACTOR).update({ where: { id: factorId }, data: { pendingSecret } });

/** The pending secret becomes the enabled one, at `enabledAt`. */
export const enableFactor = (strapi: Core.Strapi, factorId: number, secret: string, enabledAt: number) =>
  strapi.db.query(FACTOR).update({ where: { id: factorId }, data: { secret, pendingSecret: null, enabledAt } });

export const deleteRecoveryCodesOf = (strapi: Core.Strapi, userId: number) => strapi.db.query(RECOVERY).deleteMany({ where: { userId } });

/** Recovery codes (their keyed hashes) of the account, all created at `createdAt`. */
export const addRecoveryCodes = (strapi: Core.Strapi, userId: number, codeHashes: string[], createdAt: Date) =>
  strapi.db.query(RECOVERY).createMany({ data: codeHashes.map((codeHash) => ({ userId, codeHash, createdAt })) });

export const countRecoveryCodes = (strapi: Core.Strapi, userId: number): Promise<number> => strapi.db.query(RECOVERY).count({ where: { userId } });

/** The recovery codes made at `since` or later. */
export const deleteRecoveryCodesSince = (strapi: Core.Strapi, userId: number, since: Date) =>
  strapi.db.query(RECOVERY).deleteMany({ where: { userId, createdAt: { $gte: since } } });

/** The accounts' factor rows, recovery codes and pending logins, in that order. */
export const deleteSecondFactorsOf = async (strapi: Core.Strapi, userIds: number[]): Promise<void> => {
  const where = { userId: { $in: userIds } };
  await strapi.db.query(FACTOR).deleteMany({ where });
  await strapi.db.query(RECOVERY).deleteMany({ where });
  await strapi.db.query(CHALLENGE).deleteMany({ where });
};

/** Pending logins that expired before `now`. */
export const deleteExpiredChallenges = (strapi: Core.Strapi, now: number) => strapi.db.query(CHALLENGE).deleteMany({ where: { expiresAt: { $lt: now } } });

export const createChallenge = (strapi: Core.Strapi, tokenHash: string, userId: number, expiresAt: number) =>
  strapi.db.query(CHALLENGE).create({ data: { tokenHash, userId, expiresAt, attempts: 0 } });

export const challengeByTokenHash = (strapi: Core.Strapi, tokenHash: string) =>
  strapi.db.query(CHALLENGE).findOne({ where: { tokenHash } }) as Promise<ChallengeRow | null>;
