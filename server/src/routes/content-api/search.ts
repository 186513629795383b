/** Discovery (CONTRACT §9) under `/api/bag/…`: filled in by the discovery feature. */
import type { RouteModule } from '../types';

const search: RouteModule = { routes: [], grants: { public: [], authenticated: [] } };

export default search;
