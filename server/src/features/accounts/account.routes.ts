/** `/api/cms-plugin-bag/auth/…`: the account's self-service routes, each a Users & Permissions action. */
import { loginResponse } from './mfa.shapes';
import * as shapes from './account.shapes';
import { authResponse } from './auth.shapes';
import { jsonBody as json, rateLimited, type Handler, type RouteModule } from '../../platform/route-types';

// Bearer routes too: granted to Public, so a request without a token gets the plugin's 401 rather than the role check's 403.
const everyone: Handler[] = [
  'account.resetPassword',
  'account.loginCode',
  'account.changeEmail',
  'account.confirmEmail',
  'account.revertEmailPage',
  'account.revertEmail',
  'account.sessions',
  'account.revokeSession',
  'account.revokeOtherSessions',
  'account.deleteAccount',
  'account.exportAccount',
];

/** The host parses no DELETE body; this route middleware reads it as a POST's. */
const deleteBody = 'plugin::cms-plugin-bag.delete-body';

const accountRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/auth/reset-password',
      handler: 'account.resetPassword',
      request: json(shapes.resetPasswordBody),
      response: shapes.messageResponse,
      config: { middlewares: [rateLimited('login', 'identifier')] },
    },
    // Login's counters and escalation: failures per IP and per account, given back on success.
    {
      method: 'POST',
      path: '/auth/login-code',
      handler: 'account.loginCode',
      request: json(shapes.loginCodeBody),
      // An account with a second factor gets the challenge `/auth/login/mfa` finishes, and no token.
      response: loginResponse,
      config: { middlewares: [rateLimited('login', 'identifier', true)] },
    },
    // A code mailed to the new address: send-code's counters, per IP and per address.
    {
      method: 'POST',
      path: '/auth/email',
      handler: 'account.changeEmail',
      request: json(shapes.emailChangeBody),
      response: shapes.emailChangeResponse,
      config: { middlewares: [rateLimited('sendCode', 'email')] },
    },
    {
      method: 'POST',
      path: '/auth/email/confirm',
      handler: 'account.confirmEmail',
      request: json(shapes.emailConfirmBody),
      response: shapes.emailConfirmResponse,
      config: { middlewares: [rateLimited('login')] },
    },
    {
      method: 'GET',
      path: '/auth/email/revert',
      handler: 'account.revertEmailPage',
      request: { query: shapes.revertQuery },
      response: shapes.revertPage,
      config: { middlewares: [rateLimited('login')] },
    },
    {
      method: 'POST',
      path: '/auth/email/revert',
      handler: 'account.revertEmail',
      request: { query: shapes.revertQuery, ...json(shapes.emailRevertBody) },
      response: shapes.revertResponse,
      config: { middlewares: [rateLimited('login')] },
    },
    { method: 'GET', path: '/auth/sessions', handler: 'account.sessions', response: shapes.sessionsResponse },
    {
      method: 'DELETE',
      path: '/auth/sessions',
      handler: 'account.revokeOtherSessions',
      response: shapes.revokeOthersResponse,
    },
    {
      method: 'DELETE',
      path: '/auth/sessions/:id',
      handler: 'account.revokeSession',
      request: { params: shapes.sessionParams },
      response: shapes.messageResponse,
    },
    // Re-authentication counts as a login of the account (features/accounts/reauthentication.ts).
    {
      method: 'DELETE',
      path: '/auth/me',
      handler: 'account.deleteAccount',
      request: json(shapes.deleteAccountBody),
      response: shapes.messageResponse,
      config: { middlewares: [deleteBody] },
    },
    { method: 'GET', path: '/auth/me/export', handler: 'account.exportAccount', response: shapes.accountExport },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default accountRoutes;
