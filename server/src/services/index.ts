import accessTokens from '../features/accounts/access-tokens';
import accountDeletion from '../features/accounts/account-deletion';
import accountExport from '../features/accounts/account-export';
import accounts from '../features/accounts/account.service';
import cacheVersions from '../features/cache/cache-versions';
import captcha from '../features/accounts/captcha';
import clock from '../platform/clock';
import content from '../features/content/content.service';
import comments from '../features/comments/comments.service';
import commentEvents from '../features/comments/events';
import commentFollowers from '../features/comments/followers';
import commentNotifications from '../features/comments/notifications';
import commentReactions from '../features/comments/reactions';
import commentReports from '../features/comments/reports';
import commentThreads from '../features/comments/threads';
import credentialAlerts from '../features/accounts/credential-alerts';
import crypto from '../features/crypto/crypto.service';
import discoveryCommentFeed from '../features/discovery/comment-feed';
import discoveryFeeds from '../features/discovery/feeds.service';
import discoverySitemap from '../features/discovery/sitemap.service';
import editPanel from '../features/admin-places/edit-panel.service';
import emailChange from '../features/accounts/email-change';
import emailCode from '../features/accounts/email-code';
import locales from '../features/content/locales';
import menus from '../features/content/menus';
import mfa from '../features/accounts/mfa.service';
import passkeys from '../features/accounts/passkeys.service';
import passwordReset from '../features/accounts/password-reset';
import passwordless from '../features/accounts/passwordless';
import permissions from '../platform/permissions';
import purge from '../platform/purge';
import rateLimit from '../platform/rate-limit';
import redirects from '../features/redirects/redirects.service';
import reauthentication from '../features/accounts/reauthentication';
import refreshToken from '../features/accounts/refresh-token';
import responseCache from '../features/cache/response-cache';
import search from '../features/search/search.service';
import sessions from '../features/accounts/sessions';
import settings from '../platform/settings';
import signIn from '../features/accounts/sign-in';
import signInAlerts from '../features/accounts/sign-in-alerts';
import taxonomy from '../features/content/taxonomy';
import views from '../features/content/views';

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
