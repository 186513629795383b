/** The crypto bodies: anything but `{ data: string }` is the contract's `Missing data`. */
import { errors } from '@strapi/utils';
import { dataBody } from './crypto.shapes';

export const validateDataBody = (body: unknown): string => {
  const result = dataBody.safeParse(body);
  if (!result.success) throw new errors.ValidationError('Missing data');
  return result.data.data;
};
