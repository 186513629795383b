/**
 * The run's template database (tests/helpers/template.ts) stands in for a first start: a test file booted on a copy
 * of it finds what a fresh database would have after its first start — the same roles and grants, admin roles and
 * permissions, locales, and stored settings — even with a configuration of its own and other secrets.
 */
import type { Core } from '@strapi/strapi';
import { setupStrapi, type TestApp } from '../helpers/strapi';

/** A boot's configuration unlike the template's defaults: other plugin settings, other secrets (per test file). */
const CONFIG = { comments: { autoApprove: true }, rateLimit: { comment: { interval: '1m', max: 5 } } };

interface FirstStart {
  usersPermissions: Record<string, string[]>;
  adminRoles: Record<string, string[]>;
  locales: string[];
  store: Record<string, unknown>;
}

const sorted = (values: string[]) => [...values].sort();

/**
 * What the host stores differently on any two databases, template or not: the upload plugin's metrics schedule is
 * drawn at random on the first start, and its one-time Media Library notice is stored by the first start on a
 * database that has been started before (every restart does the same).
 */
const hostVariable = (store: Record<string, unknown>) => {
  const { plugin_upload_media_library_default_notice: _notice, plugin_upload_metrics: metrics, ...rest } = store;
  const { weeklySchedule: _schedule, ...otherMetrics } = (metrics ?? {}) as Record<string, unknown>;
  return { ...rest, plugin_upload_metrics: otherMetrics };
};

async function firstStartOf(strapi: Core.Strapi): Promise<FirstStart> {
  const roles = await strapi.db.query('plugin::users-permissions.role').findMany({ populate: ['permissions'] });
  const adminRoles = await strapi.db.query('admin::role').findMany({ populate: ['permissions'] });
  const locales = await strapi.db.query('plugin::i18n.locale').findMany({});
  const store = await strapi.db.query('strapi::core-store').findMany({});
  return {
    usersPermissions: Object.fromEntries(
      roles.map((role: { type: string; permissions: Array<{ action: string }> }) => [role.type, sorted(role.permissions.map((p) => p.action))])
    ),
    adminRoles: Object.fromEntries(
      adminRoles.map((role: { code: string; permissions: Array<{ action: string; subject: string | null }> }) => [
        role.code,
        sorted(role.permissions.map((p) => `${p.action} ${p.subject ?? ''}`)),
      ])
    ),
    locales: sorted(locales.map((locale: { code: string }) => locale.code)),
    store: hostVariable(Object.fromEntries(store.map((row: { key: string; value: string }) => [row.key, JSON.parse(row.value)]))),
  };
}

describe('the template database', () => {
  let fresh: TestApp | undefined;
  let copied: TestApp | undefined;

  afterAll(async () => {
    await fresh?.stop();
    await copied?.stop();
  });

  it('holds what a first start writes, for a boot with a configuration of its own', async () => {
    fresh = await setupStrapi({ fresh: true, config: CONFIG });
    const expected = await firstStartOf(fresh.strapi);
    await fresh.stop();
    fresh = undefined;

    copied = await setupStrapi({ config: CONFIG });
    const actual = await firstStartOf(copied.strapi);

    expect(Object.keys(expected.usersPermissions).sort()).toEqual(['authenticated', 'public']);
    expect(expected.usersPermissions.public).toContain('plugin::cms-plugin-bag.comment.findByArticle');
    expect(actual).toEqual(expected);
  });
});
