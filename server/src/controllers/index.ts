import account from './account';
import adminCache from './admin-cache';
import adminComment from './admin-comment';
import adminPlaces from './admin-places';
import adminSettings from './admin-settings';
import article from './article';
import auth from './auth';
import banner from './banner';
import category from './category';
import comment from './comment';
import commentUnsubscribe from './comment-unsubscribe';
import commentFeedback from './comment-feedback';
import commentFollow from './comment-follow';
import crypto from './crypto';
import feed from './feed';
import menu from './menu';
import mfa from './mfa';
import page from './page';
import passkey from './passkey';
import redirect from './redirect';
import search from './search';
import sitemap from './sitemap';
import tag from './tag';

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
