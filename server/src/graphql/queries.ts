/** The plugin's own GraphQL queries and mutation (CONTRACT §10), on the same services as the REST routes. */
import type { Core } from '@strapi/strapi';

export const registerPluginQueries = (_strapi: Core.Strapi): void => {};
