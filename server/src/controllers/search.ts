import type { Core } from '@strapi/strapi';

/** Discovery (CONTRACT §9): filled in by the discovery feature. */
const searchController = (_: { strapi: Core.Strapi }) => ({});

export default searchController;
