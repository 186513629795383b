/** Shapes of `/api/cms-plugin-bag/utils/…`: RSA-OAEP/SHA-256 and AES-256-GCM helpers. */
import { z } from 'zod/v4';

export const dataBody = z.object({ data: z.string() });
export const publicKey = z.object({ publicKey: z.string().describe('SPKI PEM') });
export const encrypted = z.object({ encrypted: z.string().describe('Base64') });
export const decrypted = z.object({ decrypted: z.string() });
