import {
  accountController as account,
  authController as auth,
  mfaController as mfa,
  passkeysController as passkey,
} from '../features/accounts';
import { adminCacheController as adminCache } from '../features/cache';
import {
  adminCommentsController as adminComment,
  commentsController as comment,
  commentUnsubscribeController as commentUnsubscribe,
  commentFeedbackController as commentFeedback,
  commentFollowController as commentFollow,
} from '../features/comments';
import { adminPlacesController as adminPlaces } from '../features/admin-places';
import { importsController as adminImport } from '../features/import';
import { settingsController as adminSettings } from '../features/settings';
import {
  articleController as article,
  bannerController as banner,
  categoryController as category,
  menuController as menu,
  pageController as page,
  tagController as tag,
} from '../features/content';
import { cryptoController as crypto } from '../features/crypto';
import { feedsController as feed, sitemapController as sitemap } from '../features/discovery';
import { readersController as readers } from '../features/readers';
import { redirectsController as redirect } from '../features/redirects';
import { searchController as search } from '../features/search';
import { adminNewslettersController as adminNewsletter, newslettersController as newsletter } from '../features/newsletters';

type Controllers = typeof controllers;

/**
 * `controller.action` for every action the plugin's controllers define, so a renamed action fails to compile. These
 * names are the Users & Permissions actions (`plugin::cms-plugin-bag.<controller>.<action>`), stored in databases and
 * granted to roles: controllers and actions keep their names whatever the services are called. So likes and reports
 * stay the `comment-feedback` controller (features/comments/reactions.ts and reports.ts do the work).
 */
export type ActionName = {
  [C in keyof Controllers]: `${C & string}.${keyof ReturnType<Controllers[C]> & string}`;
}[keyof Controllers];

const controllers = {
  account,
  'admin-cache': adminCache,
  'admin-comment': adminComment,
  'admin-import': adminImport,
  'admin-newsletter': adminNewsletter,
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
  newsletter,
  page,
  passkey,
  readers,
  redirect,
  search,
  sitemap,
  tag,
};

export default controllers;
