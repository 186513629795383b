/** `/api/cms-plugin-bag/auth/passkeys/…`: register, list, rename and remove passkeys (Bearer), and sign in with one. */
import * as shapes from './mfa.shapes';
import { jsonBody as json, rateLimited, type Handler, type RouteModule } from '../../platform/route-types';

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
      request: json(shapes.passkeyRegisterOptionsBody),
      response: shapes.passkeyRegisterOptionsResponse,
    },
    {
      method: 'POST',
      path: '/auth/passkeys/register/verify',
      handler: 'passkey.registerVerify',
      request: json(shapes.passkeyRegisterBody),
      response: shapes.passkeyRegistered,
    },
    { method: 'GET', path: '/auth/passkeys', handler: 'passkey.list', response: shapes.passkeyList },
    {
      method: 'PUT',
      path: '/auth/passkeys/:id',
      handler: 'passkey.rename',
      request: { params: shapes.passkeyParams, ...json(shapes.passkeyRenameBody) },
      response: shapes.passkeySummary,
    },
    { method: 'DELETE', path: '/auth/passkeys/:id', handler: 'passkey.remove', request: { params: shapes.passkeyParams }, response: shapes.mfaMessage },
    // Sign-in: counted per client IP on `rateLimit.login`, as every login.
    {
      method: 'POST',
      path: '/auth/passkeys/login/options',
      handler: 'passkey.loginOptions',
      request: json(shapes.passkeyLoginOptionsBody),
      response: shapes.passkeyLoginOptionsResponse,
      config: { middlewares: [rateLimited('login')] },
    },
    {
      method: 'POST',
      path: '/auth/passkeys/login/verify',
      handler: 'passkey.loginVerify',
      request: json(shapes.passkeyLoginBody),
      response: shapes.finishLoginResponse,
      config: { middlewares: [rateLimited('login')] },
    },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default passkeyRoutes;
