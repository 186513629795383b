import {
  accessTokensService as accessTokens,
  accountDeletionService as accountDeletion,
  accountExportService as accountExport,
  accountService as accounts,
  captchaService as captcha,
  credentialAlertsService as credentialAlerts,
  emailChangeService as emailChange,
  emailCodeService as emailCode,
  mfaService as mfa,
  passkeysService as passkeys,
  passwordResetService as passwordReset,
  passwordlessService as passwordless,
  reauthenticationService as reauthentication,
  refreshTokenService as refreshToken,
  sessionsService as sessions,
  signInService as signIn,
  signInAlertsService as signInAlerts,
} from '../features/accounts';
import { cacheVersionsService as cacheVersions, responseCacheService as responseCache } from '../features/cache';
import clock from '../platform/clock';
import {
  contentService as content,
  localesService as locales,
  menusService as menus,
  taxonomyService as taxonomy,
  viewsService as views,
} from '../features/content';
import {
  commentsService as comments,
  eventsService as commentEvents,
  followersService as commentFollowers,
  notificationsService as commentNotifications,
  reactionsService as commentReactions,
  reportsService as commentReports,
  threadsService as commentThreads,
} from '../features/comments';
import { cryptoService as crypto } from '../features/crypto';
import {
  commentFeedService as discoveryCommentFeed,
  feedsService as discoveryFeeds,
  sitemapService as discoverySitemap,
} from '../features/discovery';
import { editPanelService as editPanel } from '../features/admin-places';
import { importsService as imports } from '../features/import';
import permissions from '../platform/permissions';
import purge from '../platform/purge';
import rateLimit from '../platform/rate-limit';
import { readersService as readers } from '../features/readers';
import { redirectsService as redirects } from '../features/redirects';
import { searchService as search } from '../features/search';
import {
  newsletterDeliveryService as newsletterDelivery,
  newsletterSendsService as newsletterSends,
  newsletterSubscriptionsService as newsletterSubscriptions,
} from '../features/newsletters';
import settings from '../platform/settings';

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
  imports,
  locales,
  menus,
  mfa,
  'newsletter-delivery': newsletterDelivery,
  'newsletter-sends': newsletterSends,
  'newsletter-subscriptions': newsletterSubscriptions,
  passkeys,
  'password-reset': passwordReset,
  readers,
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
