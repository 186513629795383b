/** `/api/cms-plugin-bag/auth/…`: the account flows, each a Users & Permissions action. */
import * as shapes from './auth.shapes';
import { loginResponse } from './mfa.shapes';
import { rateLimited, type Handler, type RouteModule } from '../../platform/route-types';

const everyone: Handler[] = [
  'auth.captchaKinds',
  'auth.captchaImage',
  'auth.captchaPow',
  'auth.sendCode',
  'auth.register',
  'auth.login',
  'auth.refreshToken',
  'auth.logout',
  // Granted to Public too, so a request without a token gets the plugin's 401 rather than the role check's 403.
  'auth.me',
];

const authRoutes: RouteModule = {
  routes: [
    // Which captcha kinds login and register take now (the settings are admin-overridable), for a front end's forms.
    { method: 'GET', path: '/auth/captcha', handler: 'auth.captchaKinds', response: shapes.captchaKinds },
    {
      method: 'GET',
      path: '/auth/captcha-image',
      handler: 'auth.captchaImage',
      response: shapes.captchaImage,
      config: { middlewares: [rateLimited('captchaImage')] },
    },
    // One counter per client IP for both kinds of captcha.
    {
      method: 'GET',
      path: '/auth/captcha-pow',
      handler: 'auth.captchaPow',
      response: shapes.powChallenge,
      config: { middlewares: [rateLimited('captchaImage')] },
    },
    {
      method: 'POST',
      path: '/auth/send-code',
      handler: 'auth.sendCode',
      request: shapes.sendCodeRequest,
      response: shapes.sendCodeResponse,
      config: { middlewares: [rateLimited('sendCode', 'identifier')] },
    },
    {
      method: 'POST',
      path: '/auth/register',
      handler: 'auth.register',
      request: shapes.registerRequest,
      response: shapes.authResponse,
      config: { middlewares: [rateLimited('register', 'email')] },
    },
    {
      method: 'POST',
      path: '/auth/login',
      handler: 'auth.login',
      request: shapes.loginRequest,
      // An account with a second factor gets the challenge `/auth/login/mfa` finishes, and no token.
      response: loginResponse,
      config: { middlewares: [rateLimited('login', 'identifier', true)] },
    },
    {
      method: 'POST',
      path: '/auth/refresh-token',
      handler: 'auth.refreshToken',
      request: shapes.refreshTokenRequest,
      response: shapes.refreshTokenResponse,
      config: { middlewares: [rateLimited('refreshToken')] },
    },
    // An unknown token also gets 200: revocation is idempotent (RFC 7009).
    { method: 'POST', path: '/auth/logout', handler: 'auth.logout', request: shapes.refreshTokenRequest, response: shapes.logoutResponse },
    { method: 'GET', path: '/auth/me', handler: 'auth.me', response: shapes.user },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default authRoutes;
