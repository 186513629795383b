import hostAuth from './host-auth';
import rateLimit from './rate-limit';

export default {
  'host-auth': hostAuth,
  'rate-limit': rateLimit,
};
