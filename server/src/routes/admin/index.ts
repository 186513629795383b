/** Admin panel routes under `/cms-plugin-bag/…`, each guarded by `admin::hasPermissions` with the plugin's actions. */
import cache from '../../features/cache/admin-cache.routes';
import comments from '../../features/comments/admin-comments.routes';
import places from '../../features/admin-places/admin-places.routes';
import settings from '../../features/settings/settings.routes';

export const routes = [...settings, ...comments, ...cache, ...places];
