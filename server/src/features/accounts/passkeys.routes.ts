/** `/api/cms-plugin-bag/auth/passkeys/…`: register, list, rename and remove passkeys (Bearer), and sign in with one. */
import * as shapes from './mfa.shapes';
import { rateLimited, type Handler, type RouteModule } from '../../platform/route-types';
import { SIGNED_IN } from '../../platform/signed-in.middleware';

/** The Bearer routes' 401 (platform/signed-in.middleware.ts). */
const bearer = { middlewares: [SIGNED_IN] };

// Granted to Public too, so a request without a token gets the plugin's 401 rather than the role check's 403.
const everyone: Handler[] = [
  'passkey.registerOptions',
  'passkey.registerVerify',
  'passkey.list',
  'passkey.rename',
  'passkey.remove',
  'passkey.loginOptions',
  'passkey.loginVerify',
];

const passkeyRoutes: RouteModule = {
  routes: [
    // The owner's password (or code) and second factor: counted as a login of the account, as every re-authentication.
    {
      method: 'POST',
      path: '/auth/passkeys/register/options',
      handler: 'passkey.registerOptions',
      request: shapes.passkeyRegisterOptionsRequest,
      response: shapes.passkeyRegisterOptionsResponse,
      config: bearer,
    },
    {
      method: 'POST',
      path: '/auth/passkeys/register/verify',
      handler: 'passkey.registerVerify',
      request: shapes.passkeyRegisterRequest,
      response: shapes.passkeyRegistered,
      config: bearer,
    },
    { method: 'GET', path: '/auth/passkeys', handler: 'passkey.list', response: shapes.passkeyList, config: bearer },
    { method: 'PUT', path: '/auth/passkeys/:id', handler: 'passkey.rename', request: shapes.passkeyRenameRequest, response: shapes.passkeySummary, config: bearer },
    { method: 'DELETE', path: '/auth/passkeys/:id', handler: 'passkey.remove', request: shapes.passkeyRemoveRequest, response: shapes.mfaMessage, config: bearer },
    // Sign-in: counted per client IP on `rateLimit.login`, as every login.
    {
      method: 'POST',
      path: '/auth/passkeys/login/options',
      handler: 'passkey.loginOptions',
      request: shapes.passkeyLoginOptionsRequest,
      response: shapes.passkeyLoginOptionsResponse,
      config: { middlewares: [rateLimited('login')] },
    },
    {
      method: 'POST',
      path: '/auth/passkeys/login/verify',
      handler: 'passkey.loginVerify',
      request: shapes.passkeyLoginRequest,
      response: shapes.finishLoginResponse,
      config: { middlewares: [rateLimited('login')] },
    },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default passkeyRoutes;
