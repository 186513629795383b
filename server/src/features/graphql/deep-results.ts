/**
 * GraphQL answers as deep as the REST ones. A menu's `items` (a JSON tree) may nest as deep as its data; REST writes
 * such a tree with the explicit-stack writer (platform/json.ts), but Apollo writes every result with JSON.stringify,
 * which overflows the stack at a few thousand levels and turns the answer into a 500. Unless the app configured its
 * own `apolloServer.stringifyResult`, the GraphQL plugin's server gets one writing exactly what Apollo's default
 * writes (`JSON.stringify(result) + '\n'`), with the explicit-stack writer for a result too deep for it.
 */
import type { Core } from '@strapi/strapi';
import { stringifyDeepAsync } from '../../platform/json';

const APOLLO_CONFIG = 'plugin::graphql.apolloServer';

const stringifyResult = async (result: unknown): Promise<string> => {
  try {
    return `${JSON.stringify(result)}\n`;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `${await stringifyDeepAsync(result)}\n`;
  }
};

/** Read by the GraphQL plugin when it starts its server (its bootstrap), so setting it in register is in time. */
export const writeDeepResults = (strapi: Core.Strapi): void => {
  const apolloServer = (strapi.config.get(APOLLO_CONFIG) ?? {}) as Record<string, unknown>;
  if (apolloServer.stringifyResult !== undefined) return;
  strapi.config.set(APOLLO_CONFIG, { ...apolloServer, stringifyResult });
};
