/** The account self-service bodies, checked against their shapes (features/accounts/account.shapes.ts). */
import * as shapes from './account.shapes';
import { parseShape } from '../../platform/shapes/parse';

export const validateResetPasswordBody = (body: unknown) => parseShape(shapes.resetPasswordBody, body);
export const validateLoginCodeBody = (body: unknown) => parseShape(shapes.loginCodeBody, body);
export const validateEmailChangeBody = (body: unknown) => parseShape(shapes.emailChangeBody, body);
export const validateEmailConfirmBody = (body: unknown) => parseShape(shapes.emailConfirmBody, body);
/** A DELETE without a body is an empty one: re-authentication then says what is missing. */
export const validateDeleteAccountBody = (body: unknown) => parseShape(shapes.deleteAccountBody, body ?? {});
/** The revert token from the body (`{ token }`) or, failing that, the link's query string. */
export const revertTokenOf = (body: unknown, fromLink: unknown): unknown => {
  const parsed = shapes.emailRevertBody.safeParse(body ?? {});
  return parsed.success && parsed.data.token !== undefined ? parsed.data.token : fromLink;
};
