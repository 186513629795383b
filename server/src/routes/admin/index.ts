/** Admin panel routes under `/cms-plugin-bag/…`, each guarded by `admin::hasPermissions` with the plugin's actions. */
import cache from './cache';
import comments from './comments';
import places from './places';
import settings from './settings';

export const routes = [...settings, ...comments, ...cache, ...places];
