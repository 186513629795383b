/** `/api/cms-plugin-bag/auth/…`: the account's self-service routes, each a Users & Permissions action. */
import { loginResponse } from './mfa.shapes';
import * as shapes from './account.shapes';
import { authResponse } from './auth.shapes';
import { rateLimited, type Handler, type RouteModule } from '../../platform/route-types';
import { SIGNED_IN } from '../../platform/signed-in.middleware';

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

/** The Bearer routes' 401 (platform/signed-in.middleware.ts), after any other middleware. */
const bearer = { middlewares: [SIGNED_IN] };

/** The host parses no DELETE body; this route middleware reads it as a POST's. */
const deleteBody = 'plugin::cms-plugin-bag.delete-body';

const accountRoutes: RouteModule = {
  routes: [
    {
      method: 'POST',
      path: '/auth/reset-password',
      handler: 'account.resetPassword',
      request: shapes.resetPasswordRequest,
      response: shapes.messageResponse,
      config: { middlewares: [rateLimited('login', 'identifier')] },
    },
    // Login's counters and escalation: failures per IP and per account, given back on success.
    {
      method: 'POST',
      path: '/auth/login-code',
      handler: 'account.loginCode',
      request: shapes.loginCodeRequest,
      // An account with a second factor gets the challenge `/auth/login/mfa` finishes, and no token.
      response: loginResponse,
      config: { middlewares: [rateLimited('login', 'identifier', true)] },
    },
    // A code mailed to the new address: send-code's counters, per IP and per address.
    {
      method: 'POST',
      path: '/auth/email',
      handler: 'account.changeEmail',
      request: shapes.emailChangeRequest,
      response: shapes.emailChangeResponse,
      config: { middlewares: [rateLimited('sendCode', 'email'), SIGNED_IN] },
    },
    {
      method: 'POST',
      path: '/auth/email/confirm',
      handler: 'account.confirmEmail',
      request: shapes.emailConfirmRequest,
      response: shapes.emailConfirmResponse,
      config: { middlewares: [rateLimited('login'), SIGNED_IN] },
    },
    {
      method: 'GET',
      path: '/auth/email/revert',
      handler: 'account.revertEmailPage',
      request: shapes.revertPageRequest,
      response: shapes.revertPage,
      config: { middlewares: [rateLimited('login')] },
    },
    {
      method: 'POST',
      path: '/auth/email/revert',
      handler: 'account.revertEmail',
      request: shapes.revertRequest,
      response: shapes.revertResponse,
      config: { middlewares: [rateLimited('login')] },
    },
    { method: 'GET', path: '/auth/sessions', handler: 'account.sessions', response: shapes.sessionsResponse, config: bearer },
    {
      method: 'DELETE',
      path: '/auth/sessions',
      handler: 'account.revokeOtherSessions',
      response: shapes.revokeOthersResponse,
      config: bearer,
    },
    {
      method: 'DELETE',
      path: '/auth/sessions/:id',
      handler: 'account.revokeSession',
      request: shapes.sessionRequest,
      response: shapes.messageResponse,
      config: bearer,
    },
    // Re-authentication counts as a login of the account (features/accounts/reauthentication.ts).
    {
      method: 'DELETE',
      path: '/auth/me',
      handler: 'account.deleteAccount',
      request: shapes.deleteAccountRequest,
      response: shapes.messageResponse,
      config: { middlewares: [deleteBody, SIGNED_IN] },
    },
    { method: 'GET', path: '/auth/me/export', handler: 'account.exportAccount', response: shapes.accountExport, config: bearer },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default accountRoutes;
