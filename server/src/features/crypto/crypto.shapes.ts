/** Shapes of `/api/cms-plugin-bag/utils/…`: RSA-OAEP/SHA-256 and AES-256-GCM helpers. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { declareRequest } from '../../platform/request-check';
import { jsonBody } from '../../platform/route-types';

export const dataBody = lazyShape(() => z.object({ data: z.string() }));
export const publicKey = lazyShape(() => z.object({ publicKey: z.string().describe('SPKI PEM') }));
export const encrypted = lazyShape(() => z.object({ encrypted: z.string().describe('Base64') }));
export const decrypted = lazyShape(() => z.object({ decrypted: z.string() }));

/** Anything but `{ data: string }` is `Missing data`. */
const dataOf = lazyShape(() => z.unknown().transform((body, ctx) => {
  const parsed = dataBody.safeParse(body);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: 'Missing data', input: body });
  return z.NEVER;
}));
export const dataRequest = declareRequest(jsonBody(dataBody), { current: () => jsonBody(dataOf) });
