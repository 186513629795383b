/**
 * Checks on the shape and values of a REST list query that the host's own validation lets through.
 *
 * Relation depth: every relation hop in `populate`, `filters` or `sort` is one more join or query, and a path that
 * goes back and forth (`tags.articles.tags.articles…`) multiplies the rows fetched at each hop. The dotted forms
 * (`populate=a.b.c`, `sort=a.b.c:asc`) escape the query parser's bracket-depth limit, so depth is counted here on
 * the raw query, in every form the host accepts. Components are walked through without counting: they cannot
 * form cycles. Media count as a relation (to upload files).
 *
 * Filter values: the host casts a filter value for a number column with `Number()` and throws a plain Error (a 500)
 * when that fails, and PostgreSQL refuses an out-of-range integer or a LIKE on a number column (500 as well).
 * Values that cannot mean anything for their attribute are refused here, before the query runs.
 */
import { errors } from '@strapi/utils';
import { isRecord } from '../../platform/is-record';

type Model = { attributes: Record<string, Attribute> };
type Attribute = { type: string; relation?: string; multiple?: boolean; target?: string; component?: string; components?: string[] };
type GetModel = (uid: string) => Model | undefined;
type Param = 'populate' | 'filters' | 'sort';

const HOP_TYPES = new Set(['relation', 'media']);
const MEDIA_UID = 'plugin::upload.file';
const TO_MANY = new Set(['oneToMany', 'manyToMany', 'manyWay', 'morphMany', 'morphToMany']);

/** A relation or media attribute that holds a list: each parent row can bring any number of target rows. */
const isToMany = (attribute: Attribute | undefined) =>
  Boolean(attribute && (attribute.type === 'media' ? attribute.multiple : attribute.type === 'relation' && TO_MANY.has(attribute.relation ?? '')));

export interface RelationLimits {
  /** Relation hops allowed in one path (`content.maxRelationDepth`). */
  maxDepth: number;
  /** Whether a to-many relation may follow another relation (`content.nestedToMany`). */
  nestedToMany: boolean;
}

/** Elements of an array, or of the `{ 0: …, 1: … }` object qs makes of a long or sparse array. */
const elements = (value: unknown): unknown[] => (Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : []);

/** Where a step from `model` through attribute `name` leads, and whether it is a relation hop. */
const step = (getModel: GetModel, model: Model | undefined, name: string) => {
  const attribute = model?.attributes[name];
  if (!attribute) return undefined;
  if (HOP_TYPES.has(attribute.type)) {
    const target = attribute.type === 'media' ? MEDIA_UID : attribute.target;
    return { hop: 1, model: target ? getModel(target) : undefined, attribute };
  }
  const component = attribute.type === 'component' && attribute.component ? getModel(attribute.component) : undefined;
  return { hop: 0, model: component, attribute };
};

export const checkRelationDepth = (getModel: GetModel, uid: string, query: Record<string, unknown>, limits: RelationLimits) => {
  const max = limits.maxDepth;
  const refuse = (param: Param, path: string[], depth: number): never => {
    throw new errors.ValidationError(
      `Invalid ${param}: ${path.join('.')} goes ${depth} relations deep, more than content.maxRelationDepth (${max})`,
      { param, path: path.join('.'), maxRelationDepth: max, source: 'query' }
    );
  };

  /**
   * A to-many relation behind another relation multiplies the rows of every parent row by its own fan-out
   * (`tags.articles`: 100 articles × 3 tags × 60 articles each), and the host's populate has no per-parent limit.
   * Unless `content.nestedToMany` allows it, only the first hop of a path may be a list.
   */
  const checkFanOut = (param: Param, attribute: Attribute | undefined, depthBefore: number, path: string[]) => {
    if (limits.nestedToMany || depthBefore < 1 || !isToMany(attribute)) return;
    throw new errors.ValidationError(
      `Invalid ${param}: ${path.join('.')} reaches a to-many relation through another relation, which content.nestedToMany does not allow`,
      { param, path: path.join('.'), nestedToMany: false, source: 'query' }
    );
  };

  /** Walks a dotted path; segments past an unknown attribute or a dynamic zone count as hops (nothing resolves them). */
  const dotted = (param: Param, model: Model | undefined, segments: string[], depth: number, path: string[]) => {
    let current = model;
    let hops = depth;
    const walked = [...path];
    for (const segment of segments) {
      walked.push(segment);
      const next = current ? step(getModel, current, segment) : undefined;
      if (current && !next) return; // unknown attribute: the host's validation refuses it
      if (next?.hop) checkFanOut(param, next.attribute, hops, walked);
      hops += next ? next.hop : 1;
      if (hops > max) refuse(param, walked, hops);
      current = next?.model;
    }
  };

  const populate = (model: Model | undefined, value: unknown, depth: number, path: string[]): void => {
    if (value === undefined || value === null || typeof value === 'boolean') return;
    if (typeof value === 'string') {
      if (value === '*' || value === 'true' || value === 'false') {
        if (value === '*' && model) {
          const relations = Object.keys(model.attributes).filter((name) => step(getModel, model, name)?.hop);
          if (relations.length && depth + 1 > max) refuse('populate', [...path, '*'], depth + 1);
          for (const name of relations) checkFanOut('populate', model.attributes[name], depth, [...path, '*']);
        }
        return;
      }
      for (const entry of value.split(',')) dotted('populate', model, entry.trim().split('.'), depth, path);
      return;
    }
    if (Array.isArray(value)) {
      for (const entry of value) populate(model, entry, depth, path);
      return;
    }
    if (!isRecord(value)) return;
    for (const [name, nested] of Object.entries(value)) {
      if (name === '*') {
        populate(model, '*', depth, path);
        continue;
      }
      const next = model ? step(getModel, model, name) : { hop: 1, model: undefined, attribute: undefined };
      if (!next) continue;
      const hops = depth + next.hop;
      const here = [...path, name];
      if (next.hop) checkFanOut('populate', next.attribute, depth, here);
      if (hops > max) refuse('populate', here, hops);
      if (typeof nested === 'string') populate(next.model, nested, hops, here);
      if (!isRecord(nested)) continue;
      if (next.attribute?.type === 'dynamiczone' || nested.on !== undefined) {
        for (const [component, fragment] of Object.entries(isRecord(nested.on) ? nested.on : {})) {
          if (isRecord(fragment)) populateFragment(getModel(component), fragment, hops, [...here, component]);
        }
      }
      populateFragment(next.model, nested, hops, here);
    }
  };

  /** `{ populate, filters, sort }` under a populated attribute: all of it counts against `populate`. */
  const populateFragment = (model: Model | undefined, fragment: Record<string, unknown>, depth: number, path: string[]) => {
    populate(model, fragment.populate, depth, path);
    filters(model, fragment.filters, depth, path, 'populate');
    sort(model, fragment.sort, depth, path, 'populate');
  };

  const filters = (model: Model | undefined, value: unknown, depth: number, path: string[], param: Param = 'filters'): void => {
    if (!isRecord(value)) {
      if (Array.isArray(value)) for (const entry of value) filters(model, entry, depth, path, param);
      return;
    }
    for (const [key, nested] of Object.entries(value)) {
      if (key === '$and' || key === '$or') for (const entry of elements(nested)) filters(model, entry, depth, path, param);
      else if (key === '$not') filters(model, nested, depth, path, param);
      else if (key.startsWith('$')) continue;
      else {
        const next = model ? step(getModel, model, key) : { hop: 1, model: undefined, attribute: undefined };
        if (!next) continue;
        const hops = depth + next.hop;
        if (next.hop) checkFanOut(param, next.attribute, depth, [...path, key]);
        if (hops > max) refuse(param, [...path, key], hops);
        if (next.hop > 0 || next.attribute?.type === 'component') filters(next.model, nested, hops, [...path, key], param);
      }
    }
  };

  const sort = (model: Model | undefined, value: unknown, depth: number, path: string[], param: Param = 'sort'): void => {
    if (typeof value === 'string') {
      for (const entry of value.split(',')) {
        const [field] = entry.trim().split(':');
        dotted(param, model, field.split('.'), depth, path);
      }
      return;
    }
    if (Array.isArray(value)) {
      for (const entry of value) sort(model, entry, depth, path, param);
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, nested] of Object.entries(value)) {
      if (/^\d+$/.test(key)) {
        sort(model, nested, depth, path, param);
        continue;
      }
      const next = model ? step(getModel, model, key) : { hop: 1, model: undefined, attribute: undefined };
      if (!next) continue;
      const hops = depth + next.hop;
      if (next.hop) checkFanOut(param, next.attribute, depth, [...path, key]);
      if (hops > max) refuse(param, [...path, key], hops);
      if (isRecord(nested)) sort(next.model, nested, hops, [...path, key], param);
    }
  };

  const model = getModel(uid);
  populate(model, query.populate, 0, []);
  filters(model, query.filters, 0, []);
  sort(model, query.sort, 0, []);
};

const NUMBER_TYPES: Record<string, { integer: boolean; min?: number; max?: number }> = {
  integer: { integer: true, min: -(2 ** 31), max: 2 ** 31 - 1 },
  biginteger: { integer: true, min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  float: { integer: false },
  decimal: { integer: false },
};
const BOOLEAN_VALUES = new Set(['true', 'false', '1', '0', 't', 'f']);
/** Operators whose operand is compared to the column's value (cast to its type); the rest take booleans or lists. */
const LIST_OPERATORS = new Set(['$in', '$notIn', '$between']);
const TEXT_OPERATORS = new Set([
  '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi', '$nei',
]);
const PRESENCE_OPERATORS = new Set(['$null', '$notNull']);

/** Refuses filter values that cannot be compared with their attribute (a number that is not one, LIKE on a number…). */
export const checkFilterValues = (getModel: GetModel, uid: string, filters: unknown) => {
  const refuse = (path: string[], message: string): never => {
    throw new errors.ValidationError(`Invalid filters: ${path.join('.')} ${message}`, {
      param: 'filters',
      path: path.join('.'),
      source: 'query',
    });
  };

  const checkValue = (type: string, value: unknown, path: string[]) => {
    if (value === null) return;
    const number = NUMBER_TYPES[type];
    if (number) {
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
      const pattern = number.integer ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
      const parsed = text !== undefined && pattern.test(text) ? Number(text) : NaN;
      const inRange = Number.isFinite(parsed) && (number.min === undefined || (parsed >= number.min && parsed <= number.max!));
      if (!inRange) refuse(path, `must be ${number.integer ? 'an integer' : 'a number'} in range`);
    } else if (type === 'boolean') {
      if (!(typeof value === 'boolean' || BOOLEAN_VALUES.has(String(value).trim().toLowerCase()))) refuse(path, 'must be true or false');
    }
  };

  const attributeFilter = (attribute: Attribute, value: unknown, path: string[]) => {
    const type = attribute.type;
    if (!isRecord(value)) {
      for (const entry of Array.isArray(value) ? value : [value]) checkValue(type, entry, path);
      return;
    }
    for (const [operator, operand] of Object.entries(value)) {
      const here = [...path, operator];
      if (PRESENCE_OPERATORS.has(operator)) continue;
      if (operator === '$not') attributeFilter(attribute, operand, here);
      else if (LIST_OPERATORS.has(operator)) for (const entry of elements(operand)) checkValue(type, entry, here);
      else if (TEXT_OPERATORS.has(operator) && (NUMBER_TYPES[type] || type === 'boolean')) refuse(here, `cannot be used on a ${type}`);
      else checkValue(type, operand, here);
    }
  };

  const walk = (model: Model | undefined, value: unknown, path: string[]): void => {
    if (!model || !isRecord(value)) return;
    for (const [key, nested] of Object.entries(value)) {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(nested) || !nested.every(isRecord)) refuse([...path, key], 'must be a list of filters');
        for (const entry of elements(nested)) walk(model, entry, path);
      } else if (key === '$not') {
        if (!isRecord(nested)) refuse([...path, key], 'must be a filter');
        walk(model, nested, path);
      } else if (key === 'id') attributeFilter({ type: 'integer' }, nested, [...path, key]);
      else {
        const attribute = model.attributes[key];
        if (!attribute) continue;
        const next = step(getModel, model, key);
        if (next?.model) walk(next.model, nested, [...path, key]);
        else if (!HOP_TYPES.has(attribute.type) && attribute.type !== 'component' && attribute.type !== 'dynamiczone') {
          attributeFilter(attribute, nested, [...path, key]);
        }
      }
    }
  };

  walk(getModel(uid), filters, []);
};
