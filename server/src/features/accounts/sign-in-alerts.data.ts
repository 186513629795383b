/** The sign-in device rows (features/accounts/sign-in-alerts.ts): a keyed hash of a device per account, and when it last signed in. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const UID = uid('sign-in-device');

export interface DeviceRow {
  id: number;
  lastSeenAt: string | number;
}

export const deviceByLookup = (strapi: Core.Strapi, lookup: string) =>
  strapi.db.query(UID).findOne({ where: { lookup }, select: ['id', 'lastSeenAt'] }) as Promise<DeviceRow | null>;

/** Whether a device of that lookup is recorded. */
export const deviceExists = async (strapi: Core.Strapi, lookup: string): Promise<boolean> =>
  Boolean(await strapi.db.query(UID).findOne({ where: { lookup }, select: ['id'] }));

/** Moves the device's last sign-in to `now` while it is still the one read: true when this call did. */
export const touchDevice = async (strapi: Core.Strapi, row: DeviceRow, now: number): Promise<boolean> => {
  const { count } = await strapi.db.query(UID).updateMany({ where: { id: row.id, lastSeenAt: row.lastSeenAt }, data: { lastSeenAt: now } });
  return count === 1;
};

/** Records a new device (the unique lookup refuses a second row of one device). */
export const createDevice = (strapi: Core.Strapi, lookup: string, userId: number, lastSeenAt: number) =>
  strapi.db.query(UID).create({ data: { lookup, userId, lastSeenAt } });

/** The account's devices that last signed in at `before` or earlier. */
export const deleteDevicesSeenBy = (strapi: Core.Strapi, userId: number, before: number) =>
  strapi.db.query(UID).deleteMany({ where: { userId, lastSeenAt: { $lte: before } } });

export const deleteDevicesOf = (strapi: Core.Strapi, userId: number) => strapi.db.query(UID).deleteMany({ where: { userId } });
