import rateLimit from './rate-limit';

export default {
  'rate-limit': rateLimit,
};
