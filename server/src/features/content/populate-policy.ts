/**
 * Populate policy of the public reads under /api/bag: users are shown as `{ id, documentId, username }` only (a
 * populate asking for more is a 400), comments are never populated (they have their own endpoint, which lists
 * approved ones only).
 */
import type { Core, UID } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { uid as pluginUid } from '../../platform/plugin-id';
import { USER_UID } from '../../platform/uids';
import { isRecord } from '../../platform/is-record';

const POPULATABLE = new Set(['relation', 'media', 'component', 'dynamiczone']);
/** Never populated under /api/bag: comments have their own endpoint, which lists approved ones only. */
const COMMENT_UID = pluginUid('comment');
const PUBLIC_USER_FIELDS = new Set(['id', 'documentId', 'username']);

type Populate = Record<string, unknown>;
type Attribute = { type: string; target?: string };

const listOf = (value: unknown): unknown[] =>
  typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];

export const populatePolicy = (strapi: Core.Strapi) => {
  const model = (uid: UID.ContentType) => strapi.getModel(uid);

  const userRelations = (uid: UID.ContentType) =>
    Object.entries(model(uid).attributes)
      .filter(([, attribute]) => attribute.type === 'relation' && (attribute as { target?: string }).target === USER_UID)
      .map(([name]) => name);

  /** Top-level populate as an object, from any of the host's forms (`*`, `a,b`, `[a, b]`, `{ a: … }`). */
  const populateObject = (uid: UID.ContentType, populate: unknown): Populate => {
    if (populate === undefined || populate === null || populate === false) return {};
    if (populate === '*' || populate === true) {
      return Object.fromEntries(
        Object.entries(model(uid).attributes)
          .filter(([, attribute]) => POPULATABLE.has(attribute.type))
          .map(([name]) => [name, true])
      );
    }
    if (typeof populate === 'string') return populateObject(uid, populate.split(','));
    if (Array.isArray(populate)) {
      const result: Populate = {};
      for (const entry of populate) {
        if (typeof entry !== 'string') continue;
        const [head, ...rest] = entry.trim().split('.');
        if (!head) continue;
        result[head] = rest.length > 0 ? { populate: rest.join('.') } : true;
      }
      return result;
    }
    return isRecord(populate) ? { ...populate } : {};
  };

  const relationTarget = (uid: UID.ContentType, name: string) => {
    const attribute = model(uid).attributes[name] as Attribute | undefined;
    return attribute?.type === 'relation' ? (attribute.target as UID.ContentType | undefined) : undefined;
  };

  /** Refuses, at any depth, a populate that asks a user relation for more than `{ id, documentId, username }`. */
  const checkUserPopulate = (uid: UID.ContentType, populate: unknown, path: string) => {
    for (const [name, value] of Object.entries(populateObject(uid, populate))) {
      const target = relationTarget(uid, name);
      const here = path ? `${path}.${name}` : name;
      if (!target || !isRecord(value)) continue;
      if (target === USER_UID) {
        const extra =
          listOf(value.fields).map((field) => String(field).trim()).find((field) => !PUBLIC_USER_FIELDS.has(field)) ??
          (value.populate === undefined ? undefined : 'populate');
        if (extra) throw new errors.ValidationError(`Invalid key ${extra}`, { key: extra, path: here, source: 'query', param: 'populate' });
      } else if (value.populate !== undefined) {
        checkUserPopulate(target, value.populate, here);
      }
    }
  };

  /** At any depth: users fetched with `username` only, comments never. */
  const restrictPopulate = (uid: UID.ContentType, populate: Populate): Populate => {
    for (const [name, value] of Object.entries(populate)) {
      const target = relationTarget(uid, name);
      if (target === COMMENT_UID) delete populate[name];
      else if (target === USER_UID) populate[name] = { fields: ['username'] };
      else if (target && isRecord(value) && value.populate !== undefined) {
        populate[name] = { ...value, populate: restrictPopulate(target, populateObject(target, value.populate)) };
      }
    }
    return populate;
  };

  /**
   * The populate sent to the Document Service: the request's (sanitized) or the default. A top-level user relation
   * is fetched when asked for even if the role cannot read users (the host's sanitizer would drop it): an author is
   * public here, as `{ id, documentId, username }`.
   */
  const effectivePopulate = (uid: UID.ContentType, requested: unknown, sanitized: unknown, defaults: string[]) => {
    if (requested !== undefined) checkUserPopulate(uid, requested, '');
    const wanted = populateObject(uid, requested === undefined ? defaults : requested);
    const populate = requested === undefined ? { ...wanted } : populateObject(uid, sanitized);
    for (const name of userRelations(uid)) if (name in wanted) populate[name] = true;
    return restrictPopulate(uid, populate);
  };

  return { userRelations, effectivePopulate };
};
