/** Admin panel routes under `/cms-plugin-bag/…`, each guarded by `admin::hasPermissions` with the plugin's actions. */
import { adminCacheRoutes as cache } from '../../features/cache';
import { adminCommentsRoutes as comments } from '../../features/comments';
import { adminPlacesRoutes as places } from '../../features/admin-places';
import { settingsRoutes as settings } from '../../features/settings';
import { importsRoutes as imports } from '../../features/import';
import { adminNewslettersRoutes as newsletters } from '../../features/newsletters';

export const routes = [...settings, ...comments, ...cache, ...places, ...imports, ...newsletters];
