import accounts from './accounts';
import cacheVersions from './cache-versions';
import captcha from './captcha';
import clock from './clock';
import content from './content';
import comments from './comments/comments';
import commentNotifications from './comments/notifications';
import commentReactions from './comments/reactions';
import commentReports from './comments/reports';
import commentThreads from './comments/threads';
import crypto from './crypto';
import discoveryFeeds from './discovery/feeds';
import discoverySitemap from './discovery/sitemap';
import emailCode from './email-code';
import locales from './locales';
import menus from './menus';
import permissions from './permissions';
import purge from './purge';
import rateLimit from './rate-limit';
import refreshToken from './refresh-token';
import responseCache from './response-cache';
import search from './search';
import settings from './settings';
import taxonomy from './taxonomy';
import views from './views';

export default {
  accounts,
  'cache-versions': cacheVersions,
  captcha,
  clock,
  content,
  comments,
  'comment-notifications': commentNotifications,
  'comment-reactions': commentReactions,
  'comment-reports': commentReports,
  'comment-threads': commentThreads,
  crypto,
  'discovery-feeds': discoveryFeeds,
  'discovery-sitemap': discoverySitemap,
  'email-code': emailCode,
  locales,
  menus,
  permissions,
  purge,
  'rate-limit': rateLimit,
  'refresh-token': refreshToken,
  'response-cache': responseCache,
  search,
  settings,
  taxonomy,
  views,
};
