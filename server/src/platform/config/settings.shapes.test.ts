import fs from 'fs';
import path from 'path';
import type { z } from 'zod/v4';
import { CAPTCHA_TYPES } from './settings.shapes';
import { adminSettings, captchaType, settingsBody } from './settings.shapes';

/** The dotted paths of an object shape's leaves. */
const leaves = (shape: z.ZodType, prefix = ''): string[] => {
  const def = (shape as any).def;
  if (def.type !== 'object') return [prefix];
  return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
};

describe('admin settings shapes', () => {
  it('offer the captcha types the configuration accepts', () => {
    expect(captchaType.options).toEqual([...CAPTCHA_TYPES]);
  });

  it('cover exactly the keys the README marks as changeable in the admin panel', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
    const marked = [...readme.matchAll(/^\| `([\w.]+)` \|.*\(\*admin\*\) \|$/gm)].map(([, key]) => key);
    expect(leaves(adminSettings).sort()).toEqual(marked.sort());
  });

  it('take any subset of the keys, durations as seconds or text', () => {
    expect(settingsBody.parse({})).toEqual({});
    expect(settingsBody.parse({ login: { captcha: { type: 'pow' } } })).toEqual({ login: { captcha: { type: 'pow' } } });
    expect(settingsBody.safeParse({ auth: { refreshToken: { expiresIn: '30d' } } }).success).toBe(true);
    expect(settingsBody.safeParse({ auth: { refreshToken: { expiresIn: 3600 } } }).success).toBe(true);
  });

  it('refuse a value of the wrong kind', () => {
    expect(settingsBody.safeParse({ login: { captcha: { type: 'recaptcha' } } }).success).toBe(false);
    expect(settingsBody.safeParse({ auth: { requireEncryptedPassword: 'true' } }).success).toBe(false);
    expect(settingsBody.safeParse({ comments: { autoApprove: 1 } }).success).toBe(false);
  });
});
