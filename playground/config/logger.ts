import { winston, formats } from '@strapi/logger';

export default ({ env }) => ({
  transports: [
    new winston.transports.Console({
      level: env('LOG_LEVEL', 'http'),
      format: winston.format.combine(formats.prettyPrint({ timestamps: 'YYYY-MM-DD hh:mm:ss.SSS' }), formats.levelFilter(env('LOG_LEVEL', 'http'))),
    }),
  ],
});
