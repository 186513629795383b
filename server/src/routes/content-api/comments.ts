import type { RouteModule } from '../types';

const routes: RouteModule = { routes: [], grants: {} };

export default routes;
