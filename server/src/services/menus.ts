/** Menus as trees: one query for a menu's items, the tree built in one pass (utils/tree.ts). */
import type { Core } from '@strapi/strapi';
import { buildTree, type TreeNode } from '../utils/tree';

const MENU_UID = 'plugin::cms-plugin-bag.menu';
const ITEM_UID = 'plugin::cms-plugin-bag.menu-item';
/** Relations that the tree itself expresses. */
const TREE_RELATIONS = new Set(['menu', 'parent', 'children']);
const POPULATED = new Set(['relation', 'media', 'component', 'dynamiczone']);

type Row = Record<string, unknown> & { id: number; order?: number | null };

const bySiblingOrder = (a: Row, b: Row) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id;

const menus = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** `{ id, documentId, title, slug, items }`, or null for an unknown slug. */
  async findBySlug(slug: string, auth: unknown) {
    const menu = await strapi.documents(MENU_UID).findFirst({
      filters: { slug: { $eq: slug } },
      fields: ['title', 'slug'],
    });
    if (!menu) return null;

    // Read at runtime so attributes added by extending the content type are served too: scalars as fields, media,
    // relations and components populated.
    const itemModel = strapi.getModel(ITEM_UID);
    const attributes = Object.entries(itemModel.attributes).filter(([name]) => !TREE_RELATIONS.has(name));
    const fields = attributes.filter(([, attribute]) => !POPULATED.has(attribute.type)).map(([name]) => name);
    const populate = Object.fromEntries(attributes.filter(([, attribute]) => POPULATED.has(attribute.type)).map(([name]) => [name, true]));

    const rows = (await strapi.documents(ITEM_UID).findMany({
      filters: { menu: { documentId: { $eq: menu.documentId } } },
      fields: fields as never,
      populate: { ...populate, parent: { fields: ['id'] } } as never,
    })) as unknown as (Row & { parent?: { id: number } | null })[];

    const parentOf = new Map<number, number | null>();
    const flat: Record<string, unknown>[] = [];
    for (const { parent, ...row } of rows) {
      parentOf.set(row.id, parent?.id ?? null);
      flat.push(row);
    }
    // Sanitized flat, before nesting: the host's sanitizer recurses into nested objects and a deep tree would overflow it.
    const sanitized = (await strapi.contentAPI.sanitize.output(flat, itemModel, { auth })) as Row[];

    const items: TreeNode<Row>[] = buildTree(sanitized, {
      id: (row) => row.id,
      parentId: (row) => parentOf.get(row.id),
      compare: bySiblingOrder,
    });
    return { id: menu.id, documentId: menu.documentId, title: menu.title, slug: menu.slug, items };
  },
});

export type MenusService = ReturnType<typeof menus>;
export default menus;
