/** `/api/cms-plugin-bag/auth/mfa/…` and `/auth/login/mfa`: TOTP enrolment and the second step of a sign-in. */
import * as shapes from './mfa.shapes';
import { rateLimited, type Handler, type RouteModule } from '../../platform/route-types';
import { SIGNED_IN } from '../../platform/signed-in.middleware';

/** The Bearer routes' 401 (platform/signed-in.middleware.ts). */
const bearer = { middlewares: [SIGNED_IN] };

// Granted to Public too, so a request without a token gets the plugin's 401 rather than the role check's 403.
const everyone: Handler[] = ['mfa.status', 'mfa.totpSetup', 'mfa.totpEnable', 'mfa.recoveryCodes', 'mfa.disable', 'mfa.finishLogin'];

const mfaRoutes: RouteModule = {
  routes: [
    { method: 'GET', path: '/auth/mfa', handler: 'mfa.status', response: shapes.mfaStatus, config: bearer },
    {
      method: 'POST',
      path: '/auth/mfa/totp/setup',
      handler: 'mfa.totpSetup',
      request: shapes.totpSetupRequest,
      response: shapes.totpSetupResponse,
      config: bearer,
    },
    {
      method: 'POST',
      path: '/auth/mfa/totp/enable',
      handler: 'mfa.totpEnable',
      request: shapes.totpEnableRequest,
      response: shapes.recoveryCodesResponse,
      config: bearer,
    },
    {
      method: 'POST',
      path: '/auth/mfa/recovery-codes',
      handler: 'mfa.recoveryCodes',
      request: shapes.mfaCodeRequest,
      response: shapes.recoveryCodesResponse,
      config: bearer,
    },
    { method: 'POST', path: '/auth/mfa/disable', handler: 'mfa.disable', request: shapes.mfaDisableRequest, response: shapes.mfaMessage, config: bearer },
    // Counted per client IP like every login; wrong codes also count on the account's failed-login counter.
    {
      method: 'POST',
      path: '/auth/login/mfa',
      handler: 'mfa.finishLogin',
      request: shapes.finishLoginRequest,
      response: shapes.finishLoginResponse,
      config: { middlewares: [rateLimited('login')] },
    },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default mfaRoutes;
