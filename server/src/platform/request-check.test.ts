import { errors } from '@strapi/utils';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { z } from 'zod/v4';
import { checkRequest, checked, checkedElsewhere, declareRequest, uncheckedRoutes } from './request-check';
import { jsonBody } from './route-types';
import { queryInteger } from './shapes/common';

const refusal = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(errors.ValidationError);
    const { message, details } = error as errors.ValidationError;
    return { message, details };
  }
  throw new Error('not refused');
};

const request = declareRequest(
  {
    params: { id: z.string() },
    query: { page: queryInteger({ max: 10, fallback: 1, message: 'must be an integer from 1 to 10' }) },
    ...jsonBody(z.object({ content: z.string({ error: 'must be a string' }).min(1, 'must not be empty') })),
  },
  { first: true }
);

/** A Strapi whose settings store answers `config`. */
const strapiWith = (config: unknown) =>
  ({ plugin: () => ({ service: () => ({ get: async () => config }) }) }) as unknown as Core.Strapi;

describe('checkRequest (docs/architecture.md#requests)', () => {
  it('hands over params, query and body parsed by their shapes, and only the keys they name', async () => {
    const input = await checkRequest(request, { params: { id: 'abc', other: 'x' }, query: { page: '3', junk: '1' }, body: { content: 'hi', isAdmin: true } });
    expect(input).toEqual({ params: { id: 'abc' }, query: { page: 3 }, body: { content: 'hi' } });
    expect((await checkRequest(request, { params: { id: 'abc' }, query: {}, body: { content: 'hi' } })).query).toEqual({ page: 1 });
  });

  it('refuses the first failing field of a `first` request in the host shape: params, then query, then body', async () => {
    expect(await refusal(() => checkRequest(request, { params: { id: 'a' }, query: { page: '11' }, body: {} }))).toEqual({
      message: 'page must be an integer from 1 to 10',
      details: { errors: [{ path: ['page'], message: 'must be an integer from 1 to 10', name: 'ValidationError' }] },
    });
    expect((await refusal(() => checkRequest(request, { params: { id: 'a' }, query: {}, body: { content: '' } }))).message).toBe('content must not be empty');
    // A body that is not an object reads as `{}` for a `first` request.
    expect((await refusal(() => checkRequest(request, { params: { id: 'a' }, query: {}, body: 'text' }))).message).toBe('content must be a string');
  });

  it('names every issue of a request that is not `first`', async () => {
    const all = jsonBody(z.object({ a: z.string().min(2, 'must be at least 2 characters'), b: z.number({ error: 'must be a number' }) }));
    expect(await refusal(() => checkRequest(all, { body: { a: 'x', b: 'y' } }))).toEqual({
      message: '2 errors occurred',
      details: {
        errors: [
          { path: ['a'], message: 'a must be at least 2 characters', name: 'ValidationError' },
          { path: ['b'], message: 'b must be a number', name: 'ValidationError' },
        ],
      },
    });
  });

  it('checks against the request the current settings make, and hands over what it gives', async () => {
    const limited = declareRequest(jsonBody(z.object({ text: z.string() })), {
      current: (config) => jsonBody(z.object({ text: z.string().max((config as unknown as { max: number }).max, 'too long') }).transform(({ text }) => text.length)),
    });
    const strapi = strapiWith({ max: 3 });
    expect((await checkRequest(limited, { body: { text: 'abc' } }, strapi)).body).toBe(3);
    expect((await refusal(() => checkRequest(limited, { body: { text: 'abcd' } }, strapi))).message).toBe('text too long');
    // Another settings object: the request is built again.
    expect((await checkRequest(limited, { body: { text: 'abcd' } }, strapiWith({ max: 5 }))).body).toBe(4);
  });

  it('hands over as they came the values another step checks', async () => {
    const host = { query: { filters: checkedElsewhere(z.record(z.string(), z.unknown()).optional()), locale: z.string().optional() } };
    expect((await checkRequest(host, { query: { filters: 'not an object', locale: 'en' } })).query).toEqual({ filters: 'not an object', locale: 'en' });
  });
});

describe('checked', () => {
  it('runs the action with the parsed request, and not at all when the request is refused', async () => {
    const action = jest.fn(async () => undefined);
    const handler = checked(request, action);
    const ctx = { params: { id: '7' }, query: { page: '2' }, request: { body: { content: 'yes' } } } as unknown as Context;
    await handler(ctx);
    expect(action).toHaveBeenCalledWith(ctx, { params: { id: '7' }, query: { page: 2 }, body: { content: 'yes' } });
    const bad = { params: { id: '7' }, query: { page: 'x' }, request: { body: { content: 'yes' } } } as unknown as Context;
    expect((await refusal(() => handler(bad))).message).toBe('page must be an integer from 1 to 10');
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('is how the routes are told apart from those whose action does not check what they declare', () => {
    const routes = [
      { method: 'GET', path: '/a', handler: 'x.a', request },
      { method: 'GET', path: '/b', handler: 'x.b', request },
      { method: 'GET', path: '/c', handler: 'x.c' },
    ];
    const controllers = { x: { a: checked(request, async () => undefined), b: async () => undefined, c: async () => undefined } };
    expect(uncheckedRoutes(routes, controllers)).toEqual(['GET /b (x.b)']);
  });
});
