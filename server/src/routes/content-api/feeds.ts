/** Discovery (CONTRACT §9) under `/api/bag/…`: filled in by the discovery feature. */
import type { RouteModule } from '../types';

const feeds: RouteModule = { routes: [], grants: { public: [], authenticated: [] } };

export default feeds;
