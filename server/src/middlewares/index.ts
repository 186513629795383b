import deleteBody from './delete-body';
import hostAuth from './host-auth';
import rateLimit from './rate-limit';

export default {
  'delete-body': deleteBody,
  'host-auth': hostAuth,
  'rate-limit': rateLimit,
};
