/** Admin panel users for permission tests: a second admin with a host role (Editor, Author) and its bearer token. */
import type { TestApp } from './strapi';

export interface AdminCredentials {
  email: string;
  password: string;
}

/** Creates an active admin user holding a role (its code, e.g. `strapi-editor`, or its id) and returns its credentials. */
export async function createAdminWithRole(app: TestApp, roleCodeOrId: string | number, email: string): Promise<AdminCredentials> {
  const where = typeof roleCodeOrId === 'number' ? { id: roleCodeOrId } : { code: roleCodeOrId };
  const role = await app.strapi.db.query('admin::role').findOne({ where });
  if (!role) throw new Error(`no admin role ${roleCodeOrId}`);
  const password = 'Editor-password-1';
  await app.strapi.service('admin::user').create({
    email,
    firstname: 'Eddie',
    lastname: 'Editor',
    password,
    isActive: true,
    roles: [role.id],
    registrationToken: null,
  });
  return { email, password };
}

export async function adminLogin(app: TestApp, credentials: AdminCredentials): Promise<string> {
  const res = await app.request().post('/admin/login').send(credentials);
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token ?? res.body.data.accessToken;
}

/**
 * One permission of an admin role: an action, on a content type for Content Manager actions, limited to `fields`
 * and, for a localized type, to `locales`.
 */
export interface RolePermission {
  action: string;
  subject?: string;
  fields?: string[];
  locales?: string[];
}

/** Creates an admin role holding exactly these permissions (no conditions) and returns its id. */
export async function createRoleWith(app: TestApp, name: string, permissions: (string | RolePermission)[]): Promise<number> {
  const role = await app.strapi.service('admin::role').create({ name, description: name });
  await app.strapi.service('admin::role').assignPermissions(
    role.id,
    permissions.map((permission) => {
      const { action, subject = null, fields, locales } = typeof permission === 'string' ? { action: permission } : permission;
      return { action, subject, conditions: [], properties: { ...(fields ? { fields } : {}), ...(locales ? { locales } : {}) } };
    })
  );
  return role.id;
}
