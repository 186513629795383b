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
