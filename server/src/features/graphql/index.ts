/**
 * The host's GraphQL plugin (`@strapi/plugin-graphql`), when the app installs it: close what its generated schema
 * would open around the plugin's rules, offer the plugin's own queries and mutation, and bound the operations that
 * touch the plugin's types. Never required: without
 * the GraphQL plugin this does nothing. Called from register, before the GraphQL plugin builds its schema in its
 * bootstrap, so the plugins' order in config/plugins.ts does not matter.
 */
import type { Core } from '@strapi/strapi';
import { guardHostAuthMutations } from './host-auth';
import type { PluginTypes } from './nexus';
import { limitOperations } from './operation-limits';
import { registerPluginQueries } from './queries';
import { restrictGeneratedSchema } from './restrictions';

export const registerGraphql = (strapi: Core.Strapi): void => {
  if (!strapi.plugin('graphql')) return;
  const pluginTypes: PluginTypes = new Set();
  restrictGeneratedSchema(strapi, pluginTypes);
  guardHostAuthMutations(strapi);
  registerPluginQueries(strapi, pluginTypes);
  limitOperations(strapi, pluginTypes);
};
