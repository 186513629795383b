/** The playground's logger shows its level and every more severe one: the seed, the URLs, warnings, dev mail. */
import { winston } from '@strapi/logger';
import loggerConfig from '../../playground/config/logger';

const LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug'];

/** The levels that reach the console transport, for LOG_LEVEL=`level`. */
const shownAt = (level: string): string[] => {
  const [transport] = loggerConfig({ env: (name, fallback) => (name === 'LOG_LEVEL' ? level : fallback) }).transports;
  const shown: string[] = [];
  jest.spyOn(transport, 'log').mockImplementation((info: { level: string }, next: () => void) => {
    shown.push(info.level.replace(/\u001b\[\d+m/g, ''));
    next();
  });
  const logger = winston.createLogger({ levels: winston.config.npm.levels, transports: [transport] });
  for (const severity of LEVELS) logger.log(severity, 'cms-plugin-bag playground: API at …');
  return shown;
};

describe('playground logger', () => {
  it.each([
    ['http', ['error', 'warn', 'info', 'http']],
    ['info', ['error', 'warn', 'info']],
    ['warn', ['error', 'warn']],
  ])('at LOG_LEVEL=%s shows %j', (level, expected) => {
    expect(shownAt(level)).toEqual(expected);
  });
});
