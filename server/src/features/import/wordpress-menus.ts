/**
 * WordPress menus' items (docs/import.md#wordpress-menus), written once the whole file is read: each `nav_menu_item`
 * keeps its order (`menu_order`), parent (`_menu_item_menu_item_parent`) and URL (a custom link's, or the front-end
 * path of the imported article, page or category it points to). Parents are written before their children.
 */
import { slugify, type ImportRun, type Made } from './import-run';

export interface MenuItemRecord {
  postId: string;
  title: string;
  order: number;
  menu: string;
  parent: string;
  type: string;
  object: string;
  objectId: string;
  url: string;
  target: string;
}

interface Known {
  menus: Map<string, Made>;
  posts: Map<string, { path: string; title: string }>;
  categoryPaths: Map<string, string>;
  key: (id: string) => string;
}

/** The item's URL and a title when it has none of its own; null when it points at nothing imported. */
const targetOf = (item: MenuItemRecord, known: Known): { url: string; title: string } | null => {
  if (item.type === 'custom') return item.url ? { url: item.url, title: item.url } : null;
  if (item.type === 'post_type') {
    const post = known.posts.get(item.objectId);
    return post ? { url: post.path, title: post.title } : null;
  }
  if (item.type === 'taxonomy' && item.object === 'category') {
    const path = known.categoryPaths.get(item.objectId);
    return path ? { url: path, title: slugify(path.split('/').pop() ?? '') } : null;
  }
  return null;
};

export const createMenuItems = async (run: ImportRun, items: MenuItemRecord[], known: Known) => {
  const made = new Map<string, Made>();
  const pending = [...items];
  const gone = new Set<string>();
  // An export can list one menu item under two menus: it is one item of each.
  const idOf = (item: MenuItemRecord) => `${item.menu}:${item.postId}`;
  const parentOf = (item: MenuItemRecord) => `${item.menu}:${item.parent}`;
  while (pending.length > 0) {
    const index = pending.findIndex(
      (i) => i.parent === '0' || made.has(parentOf(i)) || gone.has(parentOf(i)) || !pending.some((o) => idOf(o) === parentOf(i)),
    );
    const [item] = pending.splice(index === -1 ? 0 : index, 1);
    const menu = known.menus.get(item.menu);
    const target = targetOf(item, known);
    if (!menu || !target) {
      run.skip('menuItem', item.postId, menu ? 'no target' : 'no menu');
      gone.add(idOf(item));
      continue;
    }
    const sourceKey = known.key(`${item.postId}:menu:${item.menu}`);
    const seen = await run.seen(sourceKey);
    if (seen) {
      run.skip('menuItem', item.postId, 'exists');
      made.set(idOf(item), { id: Number(seen.targetId), documentId: String(seen.targetDocumentId) });
      continue;
    }
    const parent = made.get(parentOf(item));
    const created = await run.create('menu-item', 'menuItems', {
      title: (item.title || target.title || 'Link').slice(0, 255),
      url: target.url,
      order: item.order,
      target: item.target === '_blank' ? '_blank' : '_self',
      menu: menu.documentId,
      ...(parent ? { parent: parent.documentId } : {}),
    });
    await run.remember(sourceKey, 'menuItem', created);
    made.set(idOf(item), created);
  }
};
