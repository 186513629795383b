import accounts from './accounts';
import captcha from './captcha';
import clock from './clock';
import crypto from './crypto';
import emailCode from './email-code';
import permissions from './permissions';
import rateLimit from './rate-limit';
import refreshToken from './refresh-token';
import settings from './settings';

export default {
  accounts,
  captcha,
  clock,
  crypto,
  'email-code': emailCode,
  permissions,
  'rate-limit': rateLimit,
  'refresh-token': refreshToken,
  settings,
};
