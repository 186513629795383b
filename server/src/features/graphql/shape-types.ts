/**
 * GraphQL object types written from the answer shapes (domain/shapes), so a field is described once: its name, type,
 * nullability and description come from the zod schema the REST route answers with.
 *
 * - a required, non-null field is non-null; `optional()` or `nullable()` makes it nullable;
 * - `id` and other integers are Int, other numbers Float, booleans Boolean, `documentId` ID, ISO date-times
 *   DateTime, other strings, enums and literals String;
 * - an object (or a list of objects) with a name in `names` is that type; any other object, record, tree or unknown
 *   value is JSON, as REST sends it;
 * - keys a shape only allows (`catchall`) are not fields: a GraphQL selection names what it asks for.
 */
import type { z } from 'zod/v4';
import { builtShape } from '../../platform/shapes/lazy';
import type { InputDefinition, Nexus, ObjectDefinition } from './nexus';

type Schema = z.core.$ZodType;

/** An object type to write: its name, the object shape, and what it stands for. */
export interface NamedShape {
  name: string;
  shape: z.ZodObject;
  description?: string;
}

const defOf = (schema: Schema) => schema._zod.def as z.core.$ZodTypeDef & { innerType?: Schema; element?: Schema; format?: string };

/** The schema inside optional/nullable/default wrappers, and whether any of them lets the value be absent or null. */
const unwrap = (schema: Schema): { inner: Schema; nullable: boolean } => {
  let inner = schema;
  let nullable = false;
  for (;;) {
    const def = defOf(inner);
    if (def.type === 'optional' || def.type === 'nullable') nullable = true;
    else if (def.type !== 'default' && def.type !== 'readonly') return { inner, nullable };
    inner = def.innerType as Schema;
  }
};

const descriptionOf = (schema: Schema): string | undefined => (schema as { description?: string }).description;

const isIdUnion = (def: z.core.$ZodUnionDef): boolean =>
  def.options.length === 2 && ['string', 'number'].every((type) => def.options.some((option) => defOf(option).type === type));

/** The GraphQL type of a field's value (without list or nullability). */
const scalarOrNamed = (field: string, schema: Schema, names: Map<Schema, string>): string => {
  const named = names.get(builtShape(schema));
  if (named) return named;
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      if (def.format === 'datetime') return 'DateTime';
      return field === 'documentId' ? 'ID' : 'String';
    case 'enum':
    case 'literal':
      return 'String';
    case 'number':
      return schema._zod.bag.format === 'safeint' ? 'Int' : 'Float';
    case 'boolean':
      return 'Boolean';
    case 'union':
      // A documentId or a numeric id (platform/shapes/common.ts `identifier`), as clients may send either.
      return isIdUnion(def as z.core.$ZodUnionDef) ? 'ID' : 'JSON';
    default:
      return 'JSON';
  }
};

const addField = (t: ObjectDefinition, name: string, schema: Schema, names: Map<Schema, string>) => {
  const { inner, nullable } = unwrap(schema);
  const description = descriptionOf(schema) ?? descriptionOf(inner);
  const block = nullable ? t : t.nonNull;
  const def = defOf(inner);
  if (def.type === 'array') {
    const element = unwrap(def.element as Schema).inner;
    const type = scalarOrNamed(name, element, names);
    // A list of anything without a type of its own (a tree of menu items) is sent whole, as JSON.
    if (type !== 'JSON') return block.list.nonNull.field(name, { type, description });
  }
  block.field(name, { type: scalarOrNamed(name, inner, names), description });
};

/**
 * One nexus object type per named shape; fields that are named shapes refer to those types, or to the types of
 * `elsewhere` (written by another module).
 */
export const shapeTypes = (nexus: Nexus, shapes: readonly NamedShape[], elsewhere: readonly NamedShape[] = []) => {
  // Keyed by the built schemas: a field may hold a shape's stand-in or, inside `.optional()`, the schema itself.
  const names = new Map<Schema, string>([...shapes, ...elsewhere].map(({ shape, name }) => [builtShape(shape as Schema), name]));
  return shapes.map(({ name, shape, description }) =>
    nexus.objectType({
      name,
      description: description ?? descriptionOf(shape),
      definition(t) {
        for (const [field, schema] of Object.entries(shape.shape as Record<string, Schema>)) addField(t, field, schema, names);
      },
    })
  );
};

/** An input type to write: its name, the request's object shape, the keys GraphQL does not take, field descriptions. */
export interface NamedInputShape {
  name: string;
  shape: z.ZodObject;
  omit?: readonly string[];
  descriptions?: Record<string, string>;
}

/**
 * One nexus input type from a request shape: each field of the shape (but `omit`) with the type and nullability the
 * rules above give it, so a field added to the request shape is a field of the input. Only scalars and ids: a nested
 * object or a list in a request shape would be JSON.
 */
export const shapeInputType = (nexus: Nexus, { name, shape, omit = [], descriptions = {} }: NamedInputShape) =>
  nexus.inputObjectType({
    name,
    definition(t: InputDefinition) {
      for (const [field, schema] of Object.entries(shape.shape as Record<string, Schema>)) {
        if (omit.includes(field)) continue;
        const { inner, nullable } = unwrap(schema);
        const description = descriptions[field] ?? descriptionOf(schema) ?? descriptionOf(inner);
        (nullable ? t : t.nonNull).field(field, { type: scalarOrNamed(field, inner, new Map()) as never, description });
      }
    },
  });
