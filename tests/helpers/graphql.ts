/**
 * The host's GraphQL endpoint (`@strapi/plugin-graphql`, loaded when the playground boots with GRAPHQL=before|after).
 */
import type { TestApp } from './strapi';

/** Where the GraphQL plugin stands in the playground's config/plugins.ts relative to cms-plugin-bag. */
export const GRAPHQL_ORDERS = ['before', 'after'] as const;
export type GraphqlOrder = (typeof GRAPHQL_ORDERS)[number];

export interface GraphqlResponse<T = Record<string, unknown>> {
  status: number;
  data: T | null | undefined;
  errors: Array<{ message: string; extensions?: Record<string, unknown> }> | undefined;
}

/** POST /graphql with an optional Bearer token (a user's jwt or an API token). */
export async function graphql<T = Record<string, unknown>>(
  app: TestApp,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphqlResponse<T>> {
  const req = app.request().post('/graphql').set('Content-Type', 'application/json');
  if (token) req.set('Authorization', `Bearer ${token}`);
  const res = await req.send({ query, variables });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors };
}
