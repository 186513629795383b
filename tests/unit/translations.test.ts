/** Every string the admin pages, widgets and side panel show has an English, a French and a Simplified Chinese translation. */
import fs from 'fs';
import path from 'path';
import { CAPTCHA_TYPES } from '../../server/src/platform/config/settings.shapes';
import { ROOT } from '../helpers/strapi';

const ADMIN = path.join(ROOT, 'admin', 'src');
const read = (locale: string): Record<string, string> =>
  JSON.parse(fs.readFileSync(path.join(ADMIN, 'translations', `${locale}.json`), 'utf8'));

const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [fs.readFileSync(file, 'utf8')] : [];
  });

/** Literal ids passed to t('…') or getTranslation('…'); template ids expand over the values the pages use. */
const usedIds = () => {
  const ids = new Set<string>();
  for (const text of sources(ADMIN)) {
    for (const match of text.matchAll(/\b(?:t|getTranslation)\(\s*'([^']+)'/g)) ids.add(match[1]);
    for (const match of text.matchAll(/\bt\(\s*`([^`$]+)\$\{[^}]+\}`/g)) {
      const prefix = match[1];
      const values = prefix.includes('captcha.type') ? [...CAPTCHA_TYPES] : ['pending', 'approved', 'rejected'];
      for (const value of values) ids.add(prefix + value);
    }
  }
  return [...ids];
};

describe('admin translations', () => {
  const en = read('en');
  const zh = read('zh-Hans');
  const fr = read('fr');
  const others = { 'zh-Hans': zh, fr };

  it('has the same keys in en, fr and zh-Hans, none empty', () => {
    for (const other of Object.values(others)) {
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(other)) expect({ key, empty: value.trim() === '' }).toEqual({ key, empty: false });
    }
    for (const [key, value] of Object.entries(en)) expect({ key, empty: value.trim() === '' }).toEqual({ key, empty: false });
  });

  it('translates every id the admin code uses', () => {
    const ids = usedIds();
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.filter((id) => !(id in en))).toEqual([]);
    expect(ids.filter((id) => !(id in zh))).toEqual([]);
    expect(ids.filter((id) => !(id in fr))).toEqual([]);
  });

  it('offers every captcha type the configuration accepts on the Settings page', () => {
    const page = fs.readFileSync(path.join(ADMIN, 'pages', 'SettingsPage.tsx'), 'utf8');
    const offered = /const CAPTCHA_TYPES[^=]*=\s*\[([^\]]*)\]/.exec(page)?.[1] ?? '';
    expect([...offered.matchAll(/'(\w+)'/g)].map((m) => m[1])).toEqual([...CAPTCHA_TYPES]);
  });

  it('keeps the placeholders of each message in the translation', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [locale, other] of Object.entries(others)) {
      for (const key of Object.keys(en)) expect({ key, [locale]: placeholders(other[key]) }).toEqual({ key, [locale]: placeholders(en[key]) });
    }
  });
});
