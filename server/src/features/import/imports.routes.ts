/** Imports of WordPress and Disqus exports (docs/import.md#admin): permission *Import content*. */
import { ADMIN_ACTIONS, requireAdmin } from '../../platform/admin-actions';
import * as shapes from './imports.shapes';
import type { PluginRoute } from '../../platform/route-types';

const importContent = { policies: [requireAdmin(ADMIN_ACTIONS.importContent)] };

const routes: PluginRoute[] = [
  {
    method: 'POST',
    path: '/imports',
    handler: 'admin-import.create',
    request: shapes.importCreateRequest,
    response: shapes.importStartedResponse,
    config: importContent,
  },
  {
    method: 'GET',
    path: '/imports/:id',
    handler: 'admin-import.findOne',
    request: shapes.importByIdRequest,
    response: shapes.importReportResponse,
    config: importContent,
  },
];

export default routes;
