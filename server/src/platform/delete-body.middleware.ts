/**
 * Route middleware: reads a DELETE request's JSON body as the host's body parser reads a POST's (the host parses
 * POST, PUT and PATCH only), so `DELETE /auth/me { password }` works without changing the app's middleware settings.
 * A body the host already parsed (an app that parses DELETE too) is kept. Bad JSON is a 400, a body over 64 KB a 413.
 */
import { errors } from '@strapi/utils';
import type { Context, Next } from 'koa';

const MAX_BYTES = 64 * 1024;

const readBody = (ctx: Context): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BYTES) {
        reject(new errors.PayloadTooLargeError('Request body too large'));
        ctx.req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    ctx.req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    ctx.req.on('error', reject);
  });

const deleteBody = () => async (ctx: Context, next: Next) => {
  const parsed = ctx.request.body as unknown;
  const hasBody = parsed !== undefined && !(typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 0);
  if (!hasBody && !ctx.req.readableEnded && ctx.is('application/json')) {
    const text = await readBody(ctx);
    if (text.trim() !== '') {
      try {
        (ctx.request as { body?: unknown }).body = JSON.parse(text);
      } catch {
        throw new errors.ValidationError('The request body is not valid JSON');
      }
    }
  }
  await next();
};

export default deleteBody;
