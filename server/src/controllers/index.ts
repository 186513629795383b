import account from '../features/accounts/account.controller';
import adminCache from '../features/cache/admin-cache.controller';
import adminComment from '../features/comments/admin-comments.controller';
import adminPlaces from '../features/admin-places/admin-places.controller';
import adminSettings from '../features/settings/settings.controller';
import article from '../features/content/article.controller';
import auth from '../features/accounts/auth.controller';
import banner from '../features/content/banner.controller';
import category from '../features/content/category.controller';
import comment from '../features/comments/comments.controller';
import commentUnsubscribe from '../features/comments/comment-unsubscribe.controller';
import commentFeedback from '../features/comments/comment-feedback.controller';
import commentFollow from '../features/comments/comment-follow.controller';
import crypto from '../features/crypto/crypto.controller';
import feed from '../features/discovery/feeds.controller';
import menu from '../features/content/menu.controller';
import mfa from '../features/accounts/mfa.controller';
import page from '../features/content/page.controller';
import passkey from '../features/accounts/passkeys.controller';
import redirect from '../features/redirects/redirects.controller';
import search from '../features/search/search.controller';
import sitemap from '../features/discovery/sitemap.controller';
import tag from '../features/content/tag.controller';

type Controllers = typeof controllers;

/**
 * `controller.action` for every action the plugin's controllers define, so a renamed action fails to compile. These
 * names are the Users & Permissions actions (`plugin::cms-plugin-bag.<controller>.<action>`), stored in databases and
 * granted to roles: controllers and actions keep their names whatever the services are called. So likes and reports
 * stay the `comment-feedback` controller (services/comments/reactions.ts and reports.ts do the work).
 */
export type ActionName = {
  [C in keyof Controllers]: `${C & string}.${keyof ReturnType<Controllers[C]> & string}`;
}[keyof Controllers];

const controllers = {
  account,
  'admin-cache': adminCache,
  'admin-comment': adminComment,
  'admin-places': adminPlaces,
  'admin-settings': adminSettings,
  article,
  auth,
  banner,
  category,
  comment,
  'comment-unsubscribe': commentUnsubscribe,
  'comment-feedback': commentFeedback,
  'comment-follow': commentFollow,
  crypto,
  feed,
  menu,
  mfa,
  page,
  passkey,
  redirect,
  search,
  sitemap,
  tag,
};

export default controllers;
