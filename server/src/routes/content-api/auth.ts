/** `/api/cms-plugin-bag/auth/…`: the account flows, each a Users & Permissions action. */
import { rateLimited, type Handler, type RouteModule } from '../types';

const everyone: Handler[] = [
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
    { method: 'GET', path: '/auth/captcha-image', handler: 'auth.captchaImage', config: { middlewares: [rateLimited('captchaImage')] } },
    // One counter per client IP for both kinds of captcha.
    { method: 'GET', path: '/auth/captcha-pow', handler: 'auth.captchaPow', config: { middlewares: [rateLimited('captchaImage')] } },
    { method: 'POST', path: '/auth/send-code', handler: 'auth.sendCode', config: { middlewares: [rateLimited('sendCode', 'identifier')] } },
    { method: 'POST', path: '/auth/register', handler: 'auth.register', config: { middlewares: [rateLimited('register', 'email')] } },
    { method: 'POST', path: '/auth/login', handler: 'auth.login', config: { middlewares: [rateLimited('login', 'identifier', true)] } },
    { method: 'POST', path: '/auth/refresh-token', handler: 'auth.refreshToken', config: { middlewares: [rateLimited('refreshToken')] } },
    { method: 'POST', path: '/auth/logout', handler: 'auth.logout' },
    { method: 'GET', path: '/auth/me', handler: 'auth.me' },
  ],
  grants: { public: everyone, authenticated: everyone },
};

export default authRoutes;
