/**
 * Menus as trees: one query for a menu's items, the tree built in one pass (platform/tree.ts). Per locale: a menu's slug
 * is shared by its locale versions, each version has its own items, and linked articles and pages are served in the
 * menu's locale.
 */
import type { Core, Schema, UID } from '@strapi/strapi';
import { contentTypes, errors, relations } from '@strapi/utils';
import { linkedDocumentIds } from './menu-links.data';
import { yieldToEventLoop } from '../../platform/json';
import { buildTree, type TreeNode } from '../../platform/tree';
import { getService } from '../../platform/get-service';
import { flatTree, keysAlike, sanitizeByExample } from './output-projection';

const MENU_UID = 'plugin::cms-plugin-bag.menu';
const ITEM_UID = 'plugin::cms-plugin-bag.menu-item';
/**
 * Relations not served on a node: those the tree itself expresses, and the i18n plugin's `localizations` (an item's
 * other locale versions, which belong to other menus).
 */
const NOT_SERVED = new Set(['menu', 'parent', 'children', 'localizations']);
const POPULATED = new Set(['relation', 'media', 'component', 'dynamiczone']);

type Row = Record<string, unknown> & { id: number; order?: number | null };
type Attribute = [name: string, attribute: Schema.Attribute.AnyAttribute];

const bySiblingOrder = (a: Row, b: Row) => (a.order ?? 0) - (b.order ?? 0) || a.id - b.id;

/** What a menu read is told: `locale` as requested (a query parameter, a GraphQL argument), checked here. */
export interface MenuReadOptions {
  locale?: unknown;
}

const menus = ({ strapi }: { strapi: Core.Strapi }) => {
  const isLocalized = (uid: UID.Schema) => strapi.plugin('i18n').service('content-types').isLocalizedContentType(strapi.getModel(uid));

  const hasDraftAndPublishTarget = ([, attribute]: Attribute) =>
    attribute.type === 'relation' && 'target' in attribute && contentTypes.hasDraftAndPublish(strapi.getModel(attribute.target as UID.Schema));

  /**
   * Sets each row's value of one relation to the published versions, in `locale`, of the documents it links, read in
   * one query for all rows: a document with no published version in that locale becomes null (to-one) or is left out
   * (to-many), as an unpublished one. A localized target is linked in the item's locale by the Document Service (it
   * refuses a document that has no version there); the locale of the version is the menu's all the same, whatever
   * row the link holds, so a menu never shows another language's article.
   */
  const usePublishedVersions = async (rows: Row[], [name, attribute]: Attribute, locale: string) => {
    const linked = await linkedDocumentIds(strapi, rows.map((row) => row.id), name);
    const wanted = new Set([...linked.values()].flat());
    const { target } = attribute as { target: UID.ContentType };
    const published = wanted.size
      ? await strapi.documents(target).findMany({
          filters: { documentId: { $in: [...wanted] } } as never,
          status: 'published',
          ...(isLocalized(target) ? { locale } : {}),
        })
      : [];
    const byDocumentId = new Map(published.map((document) => [document.documentId, document]));
    for (const row of rows) {
      const found = (linked.get(row.id) ?? []).flatMap((documentId) => byDocumentId.get(documentId) ?? []);
      row[name] = relations.isAnyToMany(attribute) ? found : (found[0] ?? null);
    }
  };

  return {
    /** `{ id, documentId, title, slug, locale, items }` of the menu's version in `locale`, or null if it has none. */
    async findBySlug(slug: string, auth: unknown, locale: string) {
      const menu = await strapi.documents(MENU_UID).findFirst({
        filters: { slug: { $eq: slug } },
        fields: ['title', 'slug'],
        locale,
      });
      if (!menu) return null;

      // Read at runtime so attributes added by extending the content type are served too: scalars as fields, media,
      // relations and components populated.
      const itemModel = strapi.getModel(ITEM_UID);
      const attributes = Object.entries(itemModel.attributes).filter(([name]) => !NOT_SERVED.has(name));
      const fields = attributes.filter(([, attribute]) => !POPULATED.has(attribute.type)).map(([name]) => name);
      const populate: Record<string, unknown> = Object.fromEntries(
        attributes.filter(([, attribute]) => POPULATED.has(attribute.type)).map(([name]) => [name, true])
      );
      // A relation from this type (no draft & publish) to a draft & publish type links both rows of a document, draft
      // and published, or only the draft when linked before the first publication: only the linked document ids are
      // read (linkedDocumentIds), and the published versions swapped in.
      const toPublished = attributes.filter(hasDraftAndPublishTarget);
      for (const [name] of toPublished) delete populate[name];

      // The items of this locale version: their `menu` link holds the menu's row in their own locale.
      const rows = (await strapi.documents(ITEM_UID).findMany({
        filters: { menu: { id: { $eq: menu.id } } },
        locale,
        fields: fields as never,
        populate: { ...populate, parent: { fields: ['id'] } } as never,
      })) as unknown as (Row & { parent?: { id: number } | null })[];
      // A 1,000-item menu is a few turns of the event loop, not one (SQLite answers synchronously): the items' read,
      // the published versions swapped in, and the sanitizing and nesting each take one.
      await yieldToEventLoop();
      for (const attribute of toPublished) await usePublishedVersions(rows, attribute, locale);
      await yieldToEventLoop();

      const parentOf = new Map<number, number | null>();
      const flat: Record<string, unknown>[] = [];
      for (const { parent, ...row } of rows) {
        parentOf.set(row.id, parent?.id ?? null);
        flat.push(row);
      }
      // Sanitized flat, before nesting: the host's sanitizer recurses into nested objects and a deep tree would
      // overflow it. Through one example item when it can (output-projection.ts): the sanitizer was more than half the
      // CPU time of a 1,000-item menu.
      const populated = flatTree([...Object.keys(populate), ...toPublished.map(([name]) => name)]);
      const alike = flat.length > 1 && attributes.every(([, attribute]) => keysAlike(attribute));
      const byExample = alike && (await sanitizeByExample(strapi, itemModel, flat, auth, populated));
      const sanitized = (byExample || (await strapi.contentAPI.sanitize.output(flat, itemModel, { auth }))) as Row[];

      const items: TreeNode<Row>[] = buildTree(sanitized, {
        id: (row) => row.id,
        parentId: (row) => parentOf.get(row.id),
        compare: bySiblingOrder,
      });
      return { id: menu.id, documentId: menu.documentId, title: menu.title, slug: menu.slug, locale, items };
    },

    /**
     * `GET /api/bag/menus/:slug` and GraphQL `bagMenu`: the menu with its tree in the requested locale (the default
     * one when absent; 400 `Unknown locale supplied` for a code the host lacks). A slug the locale does not have is
     * 404 `Menu not found`, unless `content.localeFallback`: then the default locale's version is served, and its
     * `locale` says so. A locale added later in the admin is served the same way, with no step of its own.
     */
    async detail(slug: string, auth: unknown, options: MenuReadOptions = {}) {
      const { locale, defaultLocale } = await getService(strapi, 'locales').resolve(options.locale);
      let menu = await this.findBySlug(slug, auth, locale);
      if (!menu && locale !== defaultLocale && (await getService(strapi, 'settings').get()).content.localeFallback) {
        menu = await this.findBySlug(slug, auth, defaultLocale);
      }
      if (!menu) throw new errors.NotFoundError('Menu not found');
      return menu;
    },
  };
};

export type MenusService = ReturnType<typeof menus>;
export default menus;
