import accessTokens from './auth/access-tokens';
import accountDeletion from './auth/account-deletion';
import accountExport from './auth/account-export';
import accounts from './auth/accounts';
import cacheVersions from './cache/cache-versions';
import captcha from './auth/captcha';
import clock from './platform/clock';
import content from './content';
import comments from './comments/comments';
import commentEvents from './comments/events';
import commentFollowers from './comments/followers';
import commentNotifications from './comments/notifications';
import commentReactions from './comments/reactions';
import commentReports from './comments/reports';
import commentThreads from './comments/threads';
import credentialAlerts from './auth/credential-alerts';
import crypto from './crypto/crypto';
import discoveryCommentFeed from './discovery/comment-feed';
import discoveryFeeds from './discovery/feeds';
import discoverySitemap from './discovery/sitemap';
import editPanel from './content/edit-panel';
import emailChange from './auth/email-change';
import emailCode from './auth/email-code';
import locales from './content/locales';
import menus from './content/menus';
import mfa from './auth/mfa';
import passkeys from './auth/passkeys';
import passwordReset from './auth/password-reset';
import passwordless from './auth/passwordless';
import permissions from './platform/permissions';
import purge from './platform/purge';
import rateLimit from './platform/rate-limit';
import redirects from './content/redirects';
import reauthentication from './auth/reauthentication';
import refreshToken from './auth/refresh-token';
import responseCache from './cache/response-cache';
import search from './search';
import sessions from './auth/sessions';
import settings from './platform/settings';
import signIn from './auth/sign-in';
import signInAlerts from './auth/sign-in-alerts';
import taxonomy from './content/taxonomy';
import views from './content/views';

export default {
  'account-deletion': accountDeletion,
  'account-export': accountExport,
  accounts,
  'access-tokens': accessTokens,
  'cache-versions': cacheVersions,
  captcha,
  clock,
  content,
  comments,
  'comment-events': commentEvents,
  'comment-followers': commentFollowers,
  'comment-notifications': commentNotifications,
  'comment-reactions': commentReactions,
  'comment-reports': commentReports,
  'comment-threads': commentThreads,
  'credential-alerts': credentialAlerts,
  crypto,
  'discovery-comment-feed': discoveryCommentFeed,
  'discovery-feeds': discoveryFeeds,
  'discovery-sitemap': discoverySitemap,
  'edit-panel': editPanel,
  'email-change': emailChange,
  'email-code': emailCode,
  locales,
  menus,
  mfa,
  passkeys,
  'password-reset': passwordReset,
  passwordless,
  permissions,
  purge,
  'rate-limit': rateLimit,
  redirects,
  reauthentication,
  'refresh-token': refreshToken,
  'response-cache': responseCache,
  search,
  sessions,
  settings,
  'sign-in': signIn,
  'sign-in-alerts': signInAlerts,
  taxonomy,
  views,
};
