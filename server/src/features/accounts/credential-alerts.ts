/**
 * Tells an account's owner of every change to how it signs in (docs/accounts.md#credential-alerts: passkeys, TOTP, recovery codes, the
 * password, the e-mail address) and of its second factor's lock: one notice per event (account-mails.ts) to the
 * account's address, with the time, IP and User-Agent of the request behind it. The mail goes after the request is
 * answered, so a slow or failing mail server never delays or fails the change; a failure is logged by error code only.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { clientInfo, type ClientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { credentialNotice, sendNotice, type CredentialEvent, type Notice } from './account-mails';
import { afterAnswer } from '../../platform/after-answer';
import { emailOfUser } from './users.data';

export interface AlertOptions {
  /** Who made the change; default: the client of the request being handled (none outside a request). */
  client?: ClientInfo;
  /** A further line of the notice, worked out when it is sent (e.g. how many recovery codes are left). */
  extra?: () => Promise<string | undefined>;
}

const credentialAlerts = ({ strapi }: { strapi: Core.Strapi }) => {
  const jobs = afterAnswer(strapi);

  const background = jobs.run;

  const currentClient = (): ClientInfo => {
    const ctx = strapi.requestContext.get() as Context | undefined;
    return ctx ? clientInfo(ctx) : { ip: '', userAgent: '' };
  };

  const addressOf = async (userId: number): Promise<string | undefined> => {
    const user = await emailOfUser(strapi, userId);
    return user?.email || undefined;
  };

  const service = {
    /** Mails the owner of `userId` that `event` happened now; returns at once. */
    changed(userId: number, event: CredentialEvent, { client = currentClient(), extra }: AlertOptions = {}): void {
      const at = new Date(getService(strapi, 'clock').now());
      background('credential change notice', async () => {
        const to = await addressOf(userId);
        if (!to) return;
        await sendNotice(strapi, credentialNotice(to, event, at, client, extra ? await extra() : undefined));
      });
    },

    /** Sends a notice built by its caller (the e-mail change's, to the old address) the same way: after the answer. */
    send(notice: Notice): void {
      background('account notice', () => sendNotice(strapi, notice));
    },

    /** The client of the request being handled, for a notice built by its caller. */
    currentClient,

    /** Resolves once every notice started so far has been sent or has failed (tests, shutdown). */
    async idle(): Promise<void> {
      await jobs.idle();
    },
  };
  return service;
};

export type CredentialAlertsService = ReturnType<typeof credentialAlerts>;
export default credentialAlerts;
