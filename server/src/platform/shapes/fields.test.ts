import { z } from 'zod/v4';
import { atLeast, atMost, codePoints, email, noNul, required, string, text } from './fields';

const message = (shape: z.ZodType, value: unknown) => {
  const result = shape.safeParse(value);
  return result.success ? undefined : result.error.issues.map((issue) => issue.message);
};

describe('field builders with the plugin wording (docs/accounts.md#errors)', () => {
  it('string: absent is a required field, another type names the value it got', () => {
    expect(message(string(), undefined)).toEqual(['is a required field']);
    expect(message(string(), 12)).toEqual(['must be a `string` type, but the final value was: `12`.']);
    expect(message(string(), -0)).toEqual(['must be a `string` type, but the final value was: `-0`.']);
    expect(message(string(), null)).toEqual(['must be a `string` type, but the final value was: `null`.']);
    // Inside a list or an object, each simple value is printed as above, then JSON-encoded (the wording clients know).
    expect(message(string(), { a: 'b', n: [1] })).toEqual([
      'must be a `string` type, but the final value was: `{\n  "a": "\\"b\\"",\n  "n": [\n    "1"\n  ]\n}`.',
    ]);
    expect(message(string(), 'ok')).toBeUndefined();
  });

  it('text: at most 255 characters by default (or the given bound), never a NUL', () => {
    expect(message(text(), 'x'.repeat(255))).toBeUndefined();
    expect(message(text(), 'x'.repeat(256))).toEqual([atMost(255)]);
    expect(message(text(10), 'x'.repeat(11))).toEqual(['must be at most 10 characters']);
    expect(message(text(), 'a\u0000b')).toEqual(['must not contain NUL characters']);
  });

  it('email: the syntax accounts were always checked with; empty is required, not invalid', () => {
    for (const good of ['ada@example.com', 'a.b+c@sub.example.org', 'ümlaut@exämple.de']) expect(message(email(), good)).toBeUndefined();
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'a b@example.com']) expect(message(email(), bad)).toEqual(['must be a valid email']);
    expect(message(email(), '')).toEqual(['is a required field']);
  });

  it('the small checks', () => {
    expect(required('')).toBe(false);
    expect(required(' ')).toBe(true);
    expect(noNul('a\u0000')).toBe(false);
    expect(codePoints('a😀b')).toBe(3);
    expect(atLeast(3)).toBe('must be at least 3 characters');
  });
});
