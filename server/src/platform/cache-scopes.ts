/**
 * Which writes make which cached answers stale (docs/caching.md): the scope of each model the cache watches. The
 * content routes show the seven content types, the redirects (an old slug answers 301), their media, their authors
 * and the locales (`content`); the comment routes also show comments, likes and reports (`comments`); every hit checks the Public role (`permissions`).
 */
import { PLUGIN_ID } from './plugin-id';

/** `sessions` caches no response: it versions what each instance knows of live sessions (features/accounts/access-tokens.ts). */
/** `views` is raised by the view counter at most once a minute (features/readers: popular articles follow the counts). */
export type CacheScope = 'content' | 'comments' | 'permissions' | 'sessions' | 'views';

const plugin = (names: string[]) => names.map((name) => `plugin::${PLUGIN_ID}.${name}`);

export const WATCHED: Record<string, readonly CacheScope[]> = Object.fromEntries([
  ...plugin(['article', 'page', 'banner', 'category', 'tag', 'menu', 'menu-item', 'redirect', 'slug-redirect']).map((uid) => [uid, ['content']]),
  ...plugin(['comment', 'comment-reaction', 'comment-report', 'comment-thread']).map((uid) => [uid, ['comments']]),
  ['plugin::upload.file', ['content']],
  ['plugin::users-permissions.user', ['content', 'comments']],
  ['plugin::i18n.locale', ['content']],
  // The i18n default locale and the admin-editable settings live in the core store.
  ['strapi::core-store', ['content', 'comments']],
  ['plugin::users-permissions.permission', ['permissions']],
  ['plugin::users-permissions.role', ['permissions']],
]);

export const scopesOf = (uid: string): readonly CacheScope[] => WATCHED[uid] ?? [];
