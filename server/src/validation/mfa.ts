/** The second-factor bodies, checked against their shapes (domain/shapes/mfa.ts). */
import { finishLoginBody, mfaCodeBody, mfaDisableBody, totpEnableBody, totpSetupBody } from '../domain/shapes/mfa';
import { parseShape } from './shape';

export const validateTotpSetupBody = (body: unknown) => parseShape(totpSetupBody, body);
export const validateTotpEnableBody = (body: unknown) => parseShape(totpEnableBody, body);
export const validateMfaCodeBody = (body: unknown) => parseShape(mfaCodeBody, body);
export const validateMfaDisableBody = (body: unknown) => parseShape(mfaDisableBody, body);
export const validateFinishLoginBody = (body: unknown) => parseShape(finishLoginBody, body);
