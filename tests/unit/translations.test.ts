/**
 * Every string the admin pages, widgets and side panel show has an English, a French and a Simplified Chinese
 * translation, and every count in them is an ICU plural (docs/admin.md), so "1 comment" reads in the singular.
 */
import fs from 'fs';
import path from 'path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
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

  describe('plurals', () => {
    /** The placeholders that count what the message names (comments, views, characters, entries). */
    const COUNTS = ['count', 'total', 'entries', 'length'];
    const all = { en, fr, 'zh-Hans': zh };

    /** Every argument of a message: `{ name, plural: keys | null }`, nested ones (inside plural branches) included. */
    const argumentsOf = (elements: MessageFormatElement[]): { name: string; plural: string[] | null }[] =>
      elements.flatMap((element) => {
        if (element.type === TYPE.plural) {
          return [{ name: element.value, plural: Object.keys(element.options) }, ...Object.values(element.options).flatMap((option) => argumentsOf(option.value))];
        }
        if (element.type === TYPE.select) return [{ name: element.value, plural: null }, ...Object.values(element.options).flatMap((option) => argumentsOf(option.value))];
        if (element.type === TYPE.argument || element.type === TYPE.number) return [{ name: element.value, plural: null }];
        return [];
      });

    it('words every count as an ICU plural with the forms of its language, never "(s)"', () => {
      const wrong: { locale: string; key: string; problem: string }[] = [];
      for (const [locale, messages] of Object.entries(all)) {
        const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];
        for (const [key, message] of Object.entries(messages)) {
          if (/\((?:s|e|es|x)\)/.test(message)) wrong.push({ locale, key, problem: 'a plural written "(s)"' });
          for (const argument of argumentsOf(parse(message))) {
            if (!COUNTS.includes(argument.name)) continue;
            if (!argument.plural) wrong.push({ locale, key, problem: `{${argument.name}} is not a plural` });
            else if (!argument.plural.includes('other')) wrong.push({ locale, key, problem: `{${argument.name}} has no "other" form` });
            else {
              const unknown = argument.plural.filter((form) => !categories.includes(form) && !/^=\d+$/.test(form));
              if (unknown.length) wrong.push({ locale, key, problem: `${unknown.join(', ')}: no such form in ${locale}` });
            }
          }
        }
      }
      expect(wrong).toEqual([]);
    });

    it('uses the same placeholders, plural or not, in every language', () => {
      const names = (message: string) => [...new Set(argumentsOf(parse(message)).map((argument) => argument.name))].sort();
      for (const key of Object.keys(en)) {
        expect({ key, fr: names(fr[key]), zh: names(zh[key]) }).toEqual({ key, fr: names(en[key]), zh: names(en[key]) });
      }
    });

    it('reads one in the singular and several in the plural', () => {
      const format = (locale: keyof typeof all, key: string, values: Record<string, number | string>) =>
        new IntlMessageFormat(all[locale][key], locale).format(values);
      expect(format('en', 'widget.moderation.pending', { count: 1 })).toBe('1 comment waiting');
      expect(format('en', 'widget.moderation.pending', { count: 3 })).toBe('3 comments waiting');
      expect(format('en', 'moderation.reports', { count: 1 })).toBe('Reported once:');
      expect(format('en', 'panel.views', { count: 1 })).toBe('1 view');
      expect(format('en', 'cache.size', { size: '1 MiB', max: '50 MiB', entries: 1 })).toBe('1 MiB of 50 MiB, 1 entry (this instance)');
      // French counts 0 and 1 in the singular.
      expect(format('fr', 'moderation.subtitle', { total: 0 })).toBe('0 commentaire, en attente d’abord');
      expect(format('fr', 'moderation.subtitle', { total: 2 })).toBe('2 commentaires, en attente d’abord');
      expect(format('fr', 'panel.comments.rejected', { count: 2 })).toBe('2 rejetés');
      expect(format('zh-Hans', 'widget.moderation.pending', { count: 1 })).toBe('1 条评论等待审核');
    });

    it('gives in the code, as the default message of each id, its English translation', () => {
      const defaults = sources(ADMIN).flatMap((text) => [...text.matchAll(/\bt\(\s*'([^']+)',\s*'((?:[^'\\]|\\.)*)'/g)].map((match) => [match[1], match[2]]));
      expect(defaults.length).toBeGreaterThan(50);
      expect(defaults.filter(([id, message]) => en[id] !== message.replace(/\\'/g, "'"))).toEqual([]);
    });
  });
});
