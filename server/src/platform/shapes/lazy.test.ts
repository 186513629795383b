import { z } from 'zod/v4';
import { builtShape, lazyShape } from './lazy';

describe('lazyShape', () => {
  it('builds the schema on its first use only, once', () => {
    const make = jest.fn(() => z.object({ name: z.string() }));
    const shape = lazyShape(make);
    // What the host's route check reads of a route's `response`: the type tag.
    expect(Object.prototype.toString.call(shape)).toBe('[object Object]');
    expect(make).not.toHaveBeenCalled();
    expect(shape.parse({ name: 'a' })).toEqual({ name: 'a' });
    expect(shape.safeParse({ name: 1 }).success).toBe(false);
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('composes into other schemas and is one of zod’s types', () => {
    const inner = lazyShape(() => z.object({ id: z.number().int() }));
    const outer = lazyShape(() => z.object({ item: inner, items: z.array(inner), maybe: inner.nullable() }));
    expect(outer.parse({ item: { id: 1 }, items: [{ id: 2 }], maybe: null })).toEqual({ item: { id: 1 }, items: [{ id: 2 }], maybe: null });
    expect(outer.safeParse({ item: { id: 1.5 }, items: [], maybe: null }).success).toBe(false);
    expect(inner instanceof z.ZodObject).toBe(true);
    expect(Object.keys(outer.shape)).toEqual(['item', 'items', 'maybe']);
  });

  it('keeps the description under the stand-in, for the OpenAPI document', () => {
    const described = lazyShape(() => z.string().describe('a described field'));
    expect(described.description).toBe('a described field');
    expect(z.globalRegistry.get(described)?.description).toBe('a described field');
    const schema = z.toJSONSchema(z.object({ field: described }));
    expect(schema.properties?.field).toMatchObject({ type: 'string', description: 'a described field' });
  });

  it('converts to JSON Schema where zod looks a schema up by identity (optional, nullable, default)', () => {
    const optional = lazyShape(() => z.string().max(5).optional());
    const nullable = lazyShape(() => z.number().nullable());
    const defaulted = lazyShape(() => z.boolean().default(false));
    const schema = z.toJSONSchema(z.object({ optional, nullable, defaulted, again: optional }), { io: 'input' });
    expect(schema.properties).toMatchObject({
      optional: { type: 'string', maxLength: 5 },
      nullable: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      defaulted: { type: 'boolean', default: false },
      again: { type: 'string', maxLength: 5 },
    });
    expect(schema.required).toEqual(['nullable']);
  });

  it('stands for a record of schemas too (a route’s params or query)', () => {
    const query = lazyShape(() => ({ page: z.string().optional() }));
    expect(Object.prototype.toString.call(query)).toBe('[object Object]');
    expect({ ...query }).toEqual({ page: query.page });
    expect(z.object(query).parse({ page: '2' })).toEqual({ page: '2' });
  });

  it('builtShape: the schema a stand-in stands for, the one a derived wrapper holds', () => {
    const shape = lazyShape(() => z.object({ id: z.number() }));
    const optional = shape.optional();
    expect(builtShape(shape)).toBe(optional.unwrap());
    const plain = z.string();
    expect(builtShape(plain)).toBe(plain);
  });
});
