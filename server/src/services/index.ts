import clock from './clock';
import content from './content';
import crypto from './crypto';
import menus from './menus';
import permissions from './permissions';
import rateLimit from './rate-limit';
import settings from './settings';
import taxonomy from './taxonomy';
import views from './views';

export default {
  clock,
  content,
  crypto,
  menus,
  permissions,
  'rate-limit': rateLimit,
  settings,
  taxonomy,
  views,
};
