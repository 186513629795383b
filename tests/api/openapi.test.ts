/**
 * The host's OpenAPI document (what `npm run openapi -w playground` writes) describes every plugin route with its
 * request body and its success body, taken from the route declarations (`server/src/domain/shapes`), and is a valid
 * OpenAPI 3.1 document.
 */
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { generate } from '@strapi/openapi';
import { routes as adminRoutes } from '../../server/src/routes/admin';
import { routes as contentApiRoutes } from '../../server/src/routes/content-api';
import type { PluginRoute } from '../../server/src/platform/route-types';
import { ROOT, setupStrapi, type TestApp } from '../helpers/strapi';

type Doc = { paths: Record<string, Record<string, Operation>> };
type Operation = {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  parameters?: Array<{ name: string; in: string }>;
};

/** The validator is an ES module: it runs in its own Node process on the written document. */
const validateOpenApi = (doc: unknown): { valid: boolean; errors?: unknown } => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bag-openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    const result = await new Validator().validate(process.argv[1]);
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));
  `;
  try {
    return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, file], { cwd: ROOT, encoding: 'utf8' }));
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
};

/** `/bag/articles/:slug` → `/bag/articles/{slug}` (the document's server carries `/api`); routes without a prefix of their own are under the plugin's. */
const openApiPath = (route: PluginRoute, base: string) => {
  const prefix = route.config?.prefix ?? base;
  return `${prefix}${route.path}`.replace(/:(\w+)/g, '{$1}');
};

/** Writes that read nothing from the body (the comment and the voter come from the path and the request). */
const BODILESS = ['comment-feedback.like', 'comment-follow.subscribe', 'passkey.registerOptions'];

const successSchema = (operation: Operation) => operation.responses?.['200']?.content?.['application/json']?.schema;
const bodySchema = (operation: Operation) => operation.requestBody?.content?.['application/json']?.schema;

describe('OpenAPI document', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi();
  });

  afterAll(async () => {
    await app.stop();
  });

  describe('content API', () => {
    let doc: Doc;

    beforeAll(() => {
      doc = generate(app.strapi, { type: 'content-api' }).document as unknown as Doc;
    });

    it('is a valid OpenAPI 3.1 document', () => {
      const result = validateOpenApi(doc);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
    });

    it.each(contentApiRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
      '%s has its success body, its request body and its path parameters',
      (_, route) => {
        const operation = doc.paths[openApiPath(route, '/cms-plugin-bag')]?.[route.method.toLowerCase()];
        expect(operation).toBeDefined();
        expect(route.response).toBeDefined();
        expect(successSchema(operation)).toEqual(expect.any(Object));
        if (route.method !== 'GET' && route.method !== 'DELETE' && !BODILESS.includes(route.handler)) {
          expect(route.request?.body).toBeDefined();
        }
        if (route.request?.body) expect(bodySchema(operation)).toEqual(expect.any(Object));
        for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
          expect(operation.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name, in: 'path' })]));
        }
      }
    );

    it('describes the bodies as the routes answer them', () => {
      const list = successSchema(doc.paths['/bag/articles'].get) as { properties: Record<string, { properties?: object }> };
      expect(Object.keys(list.properties)).toEqual(['data', 'meta']);
      expect(list.properties.meta.properties).toHaveProperty('pagination');
      const login = bodySchema(doc.paths['/cms-plugin-bag/auth/login'].post) as { required: string[] };
      expect(login.required).toEqual(['identifier']);
      // The tokens, or for an account with a second factor the challenge `/auth/login/mfa` finishes.
      const auth = successSchema(doc.paths['/cms-plugin-bag/auth/login'].post) as { anyOf: { required: string[] }[] };
      expect(auth.anyOf.map((answer) => answer.required)).toEqual([['jwt', 'refreshToken', 'user'], ['mfaRequired', 'mfaToken', 'methods']]);
      const finish = successSchema(doc.paths['/cms-plugin-bag/auth/login/mfa'].post) as { required: string[] };
      expect(finish.required).toEqual(['jwt', 'refreshToken', 'user']);
    });
  });

  describe('admin API', () => {
    let doc: Doc;

    beforeAll(() => {
      doc = generate(app.strapi, { type: 'admin' }).document as unknown as Doc;
    });

    it('is a valid OpenAPI 3.1 document', () => {
      const result = validateOpenApi(doc);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
    });

    it.each(adminRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s has its success body', (_, route) => {
      const paths = Object.keys(doc.paths).filter((key) => key.endsWith(`/cms-plugin-bag${route.path.replace(/:(\w+)/g, '{$1}')}`));
      expect(paths).toHaveLength(1);
      const operation = doc.paths[paths[0]][route.method.toLowerCase()];
      expect(successSchema(operation)).toEqual(expect.any(Object));
      if (route.method !== 'GET') expect(bodySchema(operation)).toEqual(expect.any(Object));
    });
  });
});
