import type { z } from 'zod/v4';
import { deleteAccountBody, emailChangeBody, loginCodeBody, resetPasswordBody } from './account.shapes';
import { CODE_PURPOSES, loginBody, registerBody, sendCodeBody } from './auth.shapes';
import { finishLoginBody, mfaDisableBody, passkeyRegisterOptionsBody, totpEnableBody } from './mfa.shapes';

/** The messages of a refused body, `<path> <message>` as the validation words them. */
const refused = (shape: z.ZodType, body: unknown): string[] => {
  const result = shape.safeParse(body);
  expect(result.success).toBe(false);
  return result.error!.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`.trim());
};

describe('the account request shapes (docs/accounts.md#your-own-account)', () => {
  it('the e-mail change and the deletion take the second factor (mfaCode) with the password or a code', () => {
    expect(emailChangeBody.parse({ email: 'ada@example.com', password: 'secret', mfaCode: '123456', other: 1 })).toEqual({
      email: 'ada@example.com',
      password: 'secret',
      mfaCode: '123456',
    });
    expect(deleteAccountBody.parse({ code: '493817', mfaCode: 'abcde-fghij' })).toEqual({ code: '493817', mfaCode: 'abcde-fghij' });
    expect(deleteAccountBody.parse({ encryptedPassword: 'Y2lwaGVy' })).toEqual({ encryptedPassword: 'Y2lwaGVy' });
    expect(refused(emailChangeBody, { email: 'ada@example.com', password: 'x', mfaCode: '1'.repeat(65) })).toEqual([
      'mfaCode must be at most 64 characters',
    ]);
    expect(refused(deleteAccountBody, { password: 'x', mfaCode: 123456 })).toEqual([
      'mfaCode must be a `string` type, but the final value was: `123456`.',
    ]);
  });

  it('an address must be one; a code must be present', () => {
    expect(refused(emailChangeBody, { email: 'not-an-address', password: 'x' })).toEqual(['email must be a valid email']);
    expect(refused(loginCodeBody, { identifier: 'ada@example.com', code: '' })).toEqual(['code must be at least 1 characters', 'code is a required field']);
    expect(refused(resetPasswordBody, { identifier: 'ada@example.com', password: 'x' })).toEqual(['code is a required field']);
  });

  it('a password is 1 to 1024 characters, an encrypted one up to 4096, and no text may hold a NUL', () => {
    expect(refused(loginBody, { identifier: 'ada', password: '' })).toEqual(['password must be at least 1 characters']);
    expect(refused(loginBody, { identifier: 'ada', password: 'x'.repeat(1025) })).toEqual(['password must be at most 1024 characters']);
    expect(loginBody.safeParse({ identifier: 'ada', encryptedPassword: 'x'.repeat(4096) }).success).toBe(true);
    expect(refused(loginBody, { identifier: 'a\u0000da', password: 'x' })).toEqual(['identifier must not contain NUL characters']);
  });

  it('a body must be an object', () => {
    expect(refused(emailChangeBody, ['ada@example.com'])).toEqual(['The request body must be a JSON object']);
  });

  it('a code is asked for one of the named purposes', () => {
    for (const purpose of CODE_PURPOSES) expect(sendCodeBody.safeParse({ identifier: 'ada@example.com', purpose }).success).toBe(true);
    expect(refused(sendCodeBody, { identifier: 'ada@example.com', purpose: 'admin' })).toEqual([`purpose must be one of ${CODE_PURPOSES.join(', ')}`]);
  });

  it("register keeps the host's other fields for its allowedFields check", () => {
    expect(registerBody.parse({ username: 'ada', email: 'ada@example.com', password: 'x', city: 'Paris' })).toMatchObject({ city: 'Paris' });
  });

  it('the second-factor bodies: a code is required and at most 64 characters, mfaCode optional', () => {
    expect(refused(totpEnableBody, {})).toEqual(['code is a required field']);
    expect(refused(totpEnableBody, { code: '1'.repeat(65) })).toEqual(['code must be at most 64 characters']);
    expect(refused(finishLoginBody, { mfaToken: '', code: '123456' })).toEqual(['mfaToken is a required field']);
    expect(mfaDisableBody.parse({ password: 'x' })).toEqual({ password: 'x' });
    expect(passkeyRegisterOptionsBody.parse({ code: '493817', mfaCode: '123456' })).toEqual({ code: '493817', mfaCode: '123456' });
  });
});
