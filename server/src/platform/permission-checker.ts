/**
 * The Content Manager's permission checker (its `permission-checker` service, as its own controllers and its homepage
 * widgets use it): an admin's read, create and update rights on one content type, conditions (*Is creator*), locales
 * and fields included. The plugin's admin places and its Content Manager hooks ask it the questions the Content
 * Manager would.
 */
import type { Core } from '@strapi/strapi';

export type CheckedAction = 'read' | 'create' | 'update';

/** The part of the checker used here. */
export interface PermissionChecker {
  can: Record<CheckedAction, (entity?: unknown, field?: string) => boolean>;
  cannot: Record<CheckedAction, (entity?: unknown, field?: string) => boolean>;
  sanitizedQuery: Record<CheckedAction, (query: object) => Promise<Record<string, unknown>>>;
}

/** The Content Manager's `populate-builder` service: the populate its controllers load a document with. */
type PopulateBuilder = (model: string) => { populateFromQuery(query: object): { build(): Promise<object | undefined> } };

/** The checker for `model` with these abilities (`ctx.state.userAbility`); undefined without them (not an admin). */
export const permissionChecker = (strapi: Core.Strapi, userAbility: unknown, model: string): PermissionChecker | undefined => {
  if (!userAbility) return undefined;
  return strapi.plugin('content-manager').service('permission-checker').create({ userAbility, model }) as PermissionChecker;
};

/**
 * The relations a role's conditions look at (`createdBy` for *Is creator*), as the Content Manager populates a
 * document before checking it; pass it to the Document Service with the documents to check.
 */
export const permissionPopulate = async (strapi: Core.Strapi, checker: PermissionChecker, action: CheckedAction, model: string) => {
  const permissionQuery = await checker.sanitizedQuery[action]({});
  const populateBuilder = strapi.plugin('content-manager').service('populate-builder') as unknown as PopulateBuilder;
  return populateBuilder(model).populateFromQuery(permissionQuery).build();
};
