/** Categories (as a tree) and tags. */
import type { Core } from '@strapi/strapi';
import { buildTree } from '../../platform/tree';
import { getService } from '../../platform/get-service';

const CATEGORY_UID = 'plugin::cms-plugin-bag.category';
const TAG_UID = 'plugin::cms-plugin-bag.tag';

type Row = Record<string, unknown> & { id: number; title?: string | null };

const byTitle = (a: Row, b: Row) => String(a.title ?? '').localeCompare(String(b.title ?? '')) || a.id - b.id;

const taxonomy = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Every category of the requested locale (`locale` as the request gave it: absent → the default locale, unknown →
   * 400), nested under its parent; siblings by title.
   */
  async categoryTree(auth: unknown, requestedLocale?: unknown) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const rows = (await strapi.documents(CATEGORY_UID).findMany({
      populate: { parent: { fields: ['id'] } } as never,
      locale,
    })) as unknown as (Row & { parent?: { id: number } | null })[];
    const parentOf = new Map<number, number | null>();
    const flat: Row[] = [];
    for (const { parent, ...row } of rows) {
      parentOf.set(row.id, parent?.id ?? null);
      flat.push(row);
    }
    // Sanitized flat, before nesting: the host's sanitizer recurses and a deep tree would overflow it.
    const sanitized = (await strapi.contentAPI.sanitize.output(flat, strapi.getModel(CATEGORY_UID), { auth })) as Row[];
    return buildTree(sanitized, { id: (row) => row.id, parentId: (row) => parentOf.get(row.id), compare: byTitle });
  },

  /** Every tag of the requested locale (as categoryTree), by title. */
  async tags(auth: unknown, requestedLocale?: unknown) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const rows = await strapi.documents(TAG_UID).findMany({ sort: [{ title: 'asc' }, { id: 'asc' }] as never, locale });
    return strapi.contentAPI.sanitize.output(rows, strapi.getModel(TAG_UID), { auth }) as Promise<Row[]>;
  },
});

export type TaxonomyService = ReturnType<typeof taxonomy>;
export default taxonomy;
