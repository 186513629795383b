import type { Core } from '@strapi/strapi';

/** Discovery (CONTRACT §9): filled in by the discovery feature. */
const feedController = (_: { strapi: Core.Strapi }) => ({});

export default feedController;
