/**
 * The admin code checks permissions with the host's current API (docs/admin.md): useRBAC takes an array of
 * permissions (an object is deprecated and logs a warning in the browser), Page.Protect an array too.
 */
import fs from 'fs';
import path from 'path';
import { PERMISSIONS } from '../../admin/src/permissions';
import { ROOT } from '../helpers/strapi';

const ADMIN = path.join(ROOT, 'admin', 'src');

const sources = (dir: string): { file: string; text: string }[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [{ file: path.relative(ADMIN, file), text: fs.readFileSync(file, 'utf8') }] : [];
  });

describe('admin permission checks', () => {
  it('defines every permission set as an array of { action, subject }', () => {
    for (const [name, permissions] of Object.entries(PERMISSIONS)) {
      expect({ name, isArray: Array.isArray(permissions) }).toEqual({ name, isArray: true });
      for (const permission of permissions) {
        expect(Object.keys(permission).sort()).toEqual(['action', 'subject']);
        expect(typeof permission.action).toBe('string');
      }
    }
  });

  it('passes useRBAC and Page.Protect one of those arrays, never an object', () => {
    const calls = sources(ADMIN).flatMap(({ file, text }) =>
      [...text.matchAll(/\b(?:useRBAC\(|permissions=\{)\s*([^)}]*)/g)].map((match) => ({ file, argument: match[1].trim() }))
    );
    expect(calls.length).toBeGreaterThanOrEqual(4);
    const names = Object.keys(PERMISSIONS).join('|');
    expect(calls.filter(({ argument }) => !new RegExp(`^PERMISSIONS\\.(?:${names})$`).test(argument))).toEqual([]);
  });
});
