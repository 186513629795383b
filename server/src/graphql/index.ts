/**
 * The host's GraphQL plugin (`@strapi/plugin-graphql`), when the app installs it: close what its generated schema
 * would open around the plugin's rules, and offer the plugin's own queries and mutation. Never required: without
 * the GraphQL plugin this does nothing. Called from register, before the GraphQL plugin builds its schema in its
 * bootstrap, so the plugins' order in config/plugins.ts does not matter.
 */
import type { Core } from '@strapi/strapi';
import { guardHostAuthMutations } from './host-auth';
import { registerPluginQueries } from './queries';
import { restrictGeneratedSchema } from './restrictions';

export const registerGraphql = (strapi: Core.Strapi): void => {
  if (!strapi.plugin('graphql')) return;
  restrictGeneratedSchema(strapi);
  guardHostAuthMutations(strapi);
  registerPluginQueries(strapi);
};
