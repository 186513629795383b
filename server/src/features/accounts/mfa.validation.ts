/** The second-factor bodies, checked against their shapes (features/accounts/mfa.shapes.ts). */
import {
  finishLoginBody,
  mfaCodeBody,
  mfaDisableBody,
  passkeyLoginBody,
  passkeyLoginOptionsBody,
  passkeyRegisterBody,
  passkeyRegisterOptionsBody,
  passkeyRenameBody,
  totpEnableBody,
  totpSetupBody,
} from './mfa.shapes';
import { parseShape } from '../../platform/shapes/parse';

export const validateTotpSetupBody = (body: unknown) => parseShape(totpSetupBody, body);
export const validateTotpEnableBody = (body: unknown) => parseShape(totpEnableBody, body);
export const validateMfaCodeBody = (body: unknown) => parseShape(mfaCodeBody, body);
export const validateMfaDisableBody = (body: unknown) => parseShape(mfaDisableBody, body);
export const validateFinishLoginBody = (body: unknown) => parseShape(finishLoginBody, body);

export const validatePasskeyRegisterOptionsBody = (body: unknown) => parseShape(passkeyRegisterOptionsBody, body ?? {});
export const validatePasskeyRegisterBody = (body: unknown) => parseShape(passkeyRegisterBody, body);
export const validatePasskeyRenameBody = (body: unknown) => parseShape(passkeyRenameBody, body);
export const validatePasskeyLoginOptionsBody = (body: unknown) => parseShape(passkeyLoginOptionsBody, body ?? {});
export const validatePasskeyLoginBody = (body: unknown) => parseShape(passkeyLoginBody, body);
