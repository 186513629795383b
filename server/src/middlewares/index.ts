import deleteBody from './delete-body';
import hostAuth from './host-auth';
import hostMfa from './host-mfa';
import rateLimit from './rate-limit';

export default {
  'delete-body': deleteBody,
  'host-auth': hostAuth,
  'host-mfa': hostMfa,
  'rate-limit': rateLimit,
};
