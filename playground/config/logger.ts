import { winston, formats } from '@strapi/logger';

export default ({ env }: { env: (name: string, fallback?: string) => string | undefined }) => ({
  transports: [
    new winston.transports.Console({
      // `level` keeps that level and every more severe one (formats.levelFilter would keep only the levels named).
      level: env('LOG_LEVEL', 'http'),
      format: formats.prettyPrint({ timestamps: 'YYYY-MM-DD hh:mm:ss.SSS' }),
    }),
  ],
});
