/** `/api/cms-plugin-bag/auth/mfa/…` and `/auth/login/mfa`: TOTP enrolment and the second step of a sign-in. */
import * as shapes from './mfa.shapes';
import { jsonBody as json, rateLimited, type Handler, type RouteModule } from '../../platform/route-types';

// Granted to Public too, so a request without a token gets the plugin's 401 rather than the role check's 403.
const everyone: Handler[] = ['mfa.status', 'mfa.totpSetup', 'mfa.totpEnable', 'mfa.recoveryCodes', 'mfa.disable', 'mfa.finishLogin'];

const mfaRoutes: RouteModule = {
  routes: [
    { method: 'GET', path: '/auth/mfa', handler: 'mfa.status', response: shapes.mfaStatus },
    {
      method: 'POST',
      path: '/auth/mfa/totp/setup',
      handler: 'mfa.totpSetup',
      request: json(shapes.totpSetupBody),
      response: shapes.totpSetupResponse,
    },
    {
      method: 'POST',
      path: '/auth/mfa/totp/enable',
      handler: 'mfa.totpEnable',
      request: json(shapes.totpEnableBody),
      response: shapes.recoveryCodesResponse,
    },
    {
      method: 'POST',
      path: '/auth/mfa/recovery-codes',
      handler: 'mfa.recoveryCodes',
      request: json(shapes.mfaCodeBody),
      response: shapes.recoveryCodesResponse,
    },
    { method: 'POST', path: '/auth/mfa/disable', handler: 'mfa.disable', request: json(shapes.mfaDisableBody), response: shapes.mfaMessage },
    // Counted per client IP like every login; wrong codes also count on the account's failed-login counter.
    {
      method: 'POST',
      path: '/auth/login/mfa',
      handler: 'mfa.finishLogin',
      request: json(shapes.finishLoginBody),
      response: shapes.finishLoginResponse,
      config: { middlewares: [rateLimited('login')] },
    },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default mfaRoutes;
