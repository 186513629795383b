/**
 * Sign-in alerts: a successful sign-in from a device the account has not signed in from in the last 90 days mails the
 * account's address once. A device is the User-Agent and the client's network (/24 IPv4, /48 IPv6), kept only as a
 * keyed hash with the account and when it last signed in, so the table names no address and no browser.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import { signInNetwork, type ClientInfo } from '../../platform/client';
import { secretHash } from '../../platform/secret-hash';
import { getService } from '../../platform/get-service';
import { sendNotice, signInAlert } from './account-mails';
import { createDevice, deleteDevicesOf, deleteDevicesSeenBy, deviceByLookup, deviceExists, touchDevice } from './sign-in-alerts.data';

export const DEVICE_MEMORY_MS = 90 * 86_400_000;

const signInAlerts = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Remembers that `user` signed in from this client's device, and mails the account when the device is new to it
   * (`notify` false at registration). Of concurrent sign-ins from one new device, on any instance, one mails: the
   * insert meets a unique index, and a stale row is taken over by a conditional update.
   */
  async record(user: { id: number; email: string }, client: ClientInfo, config: PluginConfig, notify = true): Promise<void> {
    const clock = getService(strapi, 'clock');
    const now = clock.now();
    const lookup = secretHash(strapi, 'sign-in-device', String(user.id), client.userAgent, signInNetwork(client.ip));
    const row = await deviceByLookup(strapi, lookup);
    let isNew: boolean;
    if (row) {
      isNew = (await touchDevice(strapi, row, now)) && Number(row.lastSeenAt) <= now - DEVICE_MEMORY_MS;
    } else {
      try {
        await createDevice(strapi, lookup, user.id, now);
        isNew = true;
      } catch (error) {
        // The unique lookup: a concurrent sign-in from the same device recorded it first (and mails).
        if (await deviceExists(strapi, lookup)) return;
        throw error;
      }
    }
    await deleteDevicesSeenBy(strapi, user.id, now - DEVICE_MEMORY_MS);
    if (isNew && notify && config.account.signInAlerts) {
      await sendNotice(strapi, signInAlert(user.email, new Date(now), client.ip, client.userAgent));
    }
  },

  /** Forgets every device of these accounts (account deletion). */
  async forget(userId: number): Promise<void> {
    await deleteDevicesOf(strapi, userId);
  },
});

export type SignInAlertsService = ReturnType<typeof signInAlerts>;
export default signInAlerts;
