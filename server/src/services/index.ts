import clock from './clock';
import crypto from './crypto';
import permissions from './permissions';
import rateLimit from './rate-limit';
import settings from './settings';

export default {
  clock,
  crypto,
  permissions,
  'rate-limit': rateLimit,
  settings,
};
