import deleteBody from '../platform/delete-body.middleware';
import hostAuth from '../features/accounts/host-auth.middleware';
import hostMfa from '../features/accounts/host-mfa.middleware';
import rateLimit from '../platform/rate-limit.middleware';

export default {
  'delete-body': deleteBody,
  'host-auth': hostAuth,
  'host-mfa': hostMfa,
  'rate-limit': rateLimit,
};
