import clock from './clock';
import comments from './comments';
import crypto from './crypto';
import permissions from './permissions';
import rateLimit from './rate-limit';
import settings from './settings';

export default {
  clock,
  comments,
  crypto,
  permissions,
  'rate-limit': rateLimit,
  settings,
};
