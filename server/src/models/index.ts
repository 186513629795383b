/**
 * The plugin's internal tables: refresh tokens, captchas and e-mail codes, rate-limit counters, second factors,
 * passkeys and their challenges, comment likes, reports, threads, follows and unsubscribes, slug history, sign-in
 * devices, e-mail changes, the accounts' token epochs, imports with their items' source keys, the daily view counts,
 * and newsletter subscribers, sends and recipients. They are database models (`strapi.get('models')`), not content types, as Strapi keeps
 * its own internal tables (the settings store, webhooks, the Content Manager's history): read and written through
 * `strapi.db.query(uid)` only, unknown to the Content Manager, the Content-Type Builder, admin permissions, the
 * Document Service and GraphQL, so the host does none of its per-content-type work for them at start-up
 * (docs/benchmark.md). Each keeps the uid, table and columns it had as a hidden content type, with `createdAt` and
 * `updatedAt` (set by the database layer) and, for a passkey, its public `documentId`; the database enforces what
 * the `indexes` say (the attributes' `required` and `unique` document the code's use). An upgrade drops the
 * content-type columns nothing read (docs/operations.md#upgrading).
 */
import crypto from 'crypto';
import { uid } from '../platform/plugin-id';
import captcha from './captcha.json';
import commentReaction from './comment-reaction.json';
import commentReport from './comment-report.json';
import commentSubscription from './comment-subscription.json';
import commentThread from './comment-thread.json';
import commentUnsubscribe from './comment-unsubscribe.json';
import emailChange from './email-change.json';
import importRun from './import.json';
import importSource from './import-source.json';
import mfaChallenge from './mfa-challenge.json';
import mfaFactor from './mfa-factor.json';
import mfaRecoveryCode from './mfa-recovery-code.json';
import newsletterRecipient from './newsletter-recipient.json';
import newsletterSend from './newsletter-send.json';
import newsletterSubscriber from './newsletter-subscriber.json';
import passkey from './passkey.json';
import rateLimit from './rate-limit.json';
import refreshToken from './refresh-token.json';
import signInDevice from './sign-in-device.json';
import slugRedirect from './slug-redirect.json';
import tokenEpoch from './token-epoch.json';
import viewDay from './view-day.json';
import webauthnChallenge from './webauthn-challenge.json';

interface TableSchema {
  tableName: string;
  attributes: Record<string, Record<string, unknown>>;
  indexes?: Array<{ name: string; columns: string[]; type?: string }>;
}

const TABLES: Record<string, TableSchema> = {
  captcha,
  'comment-reaction': commentReaction,
  'comment-report': commentReport,
  'comment-subscription': commentSubscription,
  'comment-thread': commentThread,
  'comment-unsubscribe': commentUnsubscribe,
  'email-change': emailChange,
  import: importRun,
  'import-source': importSource,
  'mfa-challenge': mfaChallenge,
  'mfa-factor': mfaFactor,
  'mfa-recovery-code': mfaRecoveryCode,
  'newsletter-recipient': newsletterRecipient,
  'newsletter-send': newsletterSend,
  'newsletter-subscriber': newsletterSubscriber,
  passkey,
  'rate-limit': rateLimit,
  'refresh-token': refreshToken,
  'sign-in-device': signInDevice,
  'slug-redirect': slugRedirect,
  'token-epoch': tokenEpoch,
  'view-day': viewDay,
  'webauthn-challenge': webauthnChallenge,
};

/** The tables whose rows are named outside the server by a `documentId` (a passkey's id in `GET /auth/mfa`). */
const WITH_DOCUMENT_ID = new Set(['passkey']);

/** A new row's public id: 24 lowercase characters, as the host's document ids. */
const newDocumentId = () => crypto.randomBytes(12).toString('hex');

/** The database models of the internal tables, as `strapi.get('models').add()` takes them. */
export const internalModels = () =>
  Object.entries(TABLES).map(([name, { tableName, attributes, indexes }]) => ({
    uid: uid(name),
    singularName: name,
    tableName,
    attributes: {
      id: { type: 'increments' },
      ...(WITH_DOCUMENT_ID.has(name) ? { documentId: { type: 'string', default: newDocumentId } } : {}),
      ...attributes,
      createdAt: { type: 'datetime' },
      updatedAt: { type: 'datetime' },
    },
    indexes: indexes ?? [],
  }));
