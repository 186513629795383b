import type { PluginRoute } from '../types';

const routes: PluginRoute[] = [];

export default routes;
