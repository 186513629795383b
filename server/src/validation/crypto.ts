import { errors } from '@strapi/utils';

/** `{ data: string }`; anything else is 400 `Missing data`. */
export const validateDataBody = (body: unknown): string => {
  const data = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).data : undefined;
  if (typeof data !== 'string') throw new errors.ValidationError('Missing data');
  return data;
};
