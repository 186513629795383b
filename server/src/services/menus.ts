/** Menus as trees: one query for a menu's items, the tree built in one pass (utils/tree.ts). */
import type { Core, Schema, UID } from '@strapi/strapi';
import { contentTypes, relations } from '@strapi/utils';
import { buildTree, type TreeNode } from '../utils/tree';

const MENU_UID = 'plugin::cms-plugin-bag.menu';
const ITEM_UID = 'plugin::cms-plugin-bag.menu-item';
/** Relations that the tree itself expresses. */
const TREE_RELATIONS = new Set(['menu', 'parent', 'children']);
const POPULATED = new Set(['relation', 'media', 'component', 'dynamiczone']);

type Row = Record<string, unknown> & { id: number; order?: number | null };
type Attribute = [name: string, attribute: Schema.Attribute.AnyAttribute];

const bySiblingOrder = (a: Row, b: Row) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id;

/** The document ids a populated relation holds, each once, in link order. */
const documentIdsOf = (value: unknown): string[] => {
  const linked = (Array.isArray(value) ? value : [value]) as ({ documentId?: string } | null | undefined)[];
  return [...new Set(linked.flatMap((document) => document?.documentId ?? []))];
};

const menus = ({ strapi }: { strapi: Core.Strapi }) => {
  const hasDraftAndPublishTarget = ([, attribute]: Attribute) =>
    attribute.type === 'relation' && 'target' in attribute && contentTypes.hasDraftAndPublish(strapi.getModel(attribute.target as UID.Schema));

  /**
   * Replaces each row's links of one relation by the published versions of the linked documents, read in one query
   * for all rows: a document with no published version becomes null (to-one) or is left out (to-many).
   */
  const usePublishedVersions = async (rows: Row[], [name, attribute]: Attribute) => {
    const wanted = new Set(rows.flatMap((row) => documentIdsOf(row[name])));
    if (wanted.size === 0) return;
    const { target } = attribute as { target: UID.ContentType };
    const published = await strapi.documents(target).findMany({ filters: { documentId: { $in: [...wanted] } } as never, status: 'published' });
    const byDocumentId = new Map(published.map((document) => [document.documentId, document]));
    for (const row of rows) {
      const found = documentIdsOf(row[name]).flatMap((documentId) => byDocumentId.get(documentId) ?? []);
      row[name] = relations.isAnyToMany(attribute) ? found : (found[0] ?? null);
    }
  };

  return {
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
      const populate: Record<string, unknown> = Object.fromEntries(
        attributes.filter(([, attribute]) => POPULATED.has(attribute.type)).map(([name]) => [name, true])
      );
      // A relation from this type (no draft & publish) to a draft & publish type links both rows of a document, draft
      // and published, or only the draft when linked before the first publication: only the linked document ids are
      // read here, and the published versions swapped in.
      const toPublished = attributes.filter(hasDraftAndPublishTarget);
      for (const [name] of toPublished) populate[name] = { fields: ['documentId'] };

      const rows = (await strapi.documents(ITEM_UID).findMany({
        filters: { menu: { documentId: { $eq: menu.documentId } } },
        fields: fields as never,
        populate: { ...populate, parent: { fields: ['id'] } } as never,
      })) as unknown as (Row & { parent?: { id: number } | null })[];
      for (const attribute of toPublished) await usePublishedVersions(rows, attribute);

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
  };
};

export type MenusService = ReturnType<typeof menus>;
export default menus;
