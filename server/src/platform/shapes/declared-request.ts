/**
 * A route's declared request, as types only (platform/request-check.ts checks requests against it). Kept apart from
 * the check so the request shapes' declarations, which the typed client's published types read, name nothing of the
 * server but zod.
 */
import type { z } from 'zod/v4';

export type Shapes = Record<string, z.ZodType>;

export interface DeclaredRequest {
  params?: Shapes;
  query?: Shapes;
  body?: { 'application/json': z.ZodType };
}

/** The request a declared one is checked as (its type only: the property is never set). */
export type ChecksAs<C extends DeclaredRequest> = { readonly '~checksAs'?: C };
