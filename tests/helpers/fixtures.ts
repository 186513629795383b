/** Test shortcuts through the host's own services: users, jwts, documents, role permissions, admin tokens. */
import crypto from 'crypto';
import type { Core, UID } from '@strapi/strapi';
import type { TestApp } from './strapi';

export interface TestUser {
  id: number;
  documentId: string;
  username: string;
  email: string;
  password: string;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter += 1)}${crypto.randomBytes(2).toString('hex')}`;

/** Creates a users-permissions user (confirmed, not blocked, Authenticated role unless told otherwise). */
export async function createUser(
  strapi: Core.Strapi,
  overrides: Partial<{ username: string; email: string; password: string; confirmed: boolean; blocked: boolean }> = {}
): Promise<TestUser> {
  const id = unique();
  const password = overrides.password ?? `Pw-${id}-secret`;
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  const user = await strapi.plugin('users-permissions').service('user').add({
    username: overrides.username ?? `user${id}`,
    email: overrides.email ?? `user${id}@example.com`,
    password,
    provider: 'local',
    confirmed: overrides.confirmed ?? true,
    blocked: overrides.blocked ?? false,
    role: role.id,
  });
  return { id: user.id, documentId: user.documentId, username: user.username, email: user.email, password };
}

/** A jwt the host itself issued for this user. */
export const jwtFor = (strapi: Core.Strapi, user: { id: number }): string =>
  strapi.plugin('users-permissions').service('jwt').issue({ id: user.id });

/** Creates a document and, for draft & publish types, publishes it unless `publish: false`. */
export async function createDocument<T extends Record<string, unknown>>(
  strapi: Core.Strapi,
  uid: string,
  data: T,
  { publish = true }: { publish?: boolean } = {}
) {
  const documents = strapi.documents(uid as never);
  const created = await documents.create({ data: data as never });
  const hasDraftAndPublish = Boolean(strapi.getModel(uid as UID.ContentType)?.options?.draftAndPublish);
  if (hasDraftAndPublish && publish) {
    const result = await documents.publish({ documentId: created.documentId });
    return result.entries[0] as typeof created;
  }
  return created;
}

/** Grants (or with `false`, revokes) a Users & Permissions action to a role type (`public`, `authenticated`). */
export async function setPermission(strapi: Core.Strapi, roleType: string, action: string, granted = true) {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: roleType } });
  const where = { action, role: role.id };
  if (granted) {
    if (!(await strapi.db.query('plugin::users-permissions.permission').findOne({ where }))) {
      await strapi.db.query('plugin::users-permissions.permission').create({ data: where });
    }
  } else {
    await strapi.db.query('plugin::users-permissions.permission').deleteMany({ where });
  }
}

/** Registers the first super admin (or logs in as it) and returns an admin panel bearer token. */
export async function adminToken(app: TestApp): Promise<string> {
  const credentials = { email: 'admin@example.com', password: 'Admin-password-1' };
  const hasAdmin = await app.strapi.service('admin::user').exists();
  const res = hasAdmin
    ? await app.request().post('/admin/login').send(credentials)
    : await app.request().post('/admin/register-admin').send({ ...credentials, firstname: 'Ada', lastname: 'Admin' });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token ?? res.body.data.accessToken;
}
