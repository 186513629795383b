import deleteBody from '../platform/delete-body.middleware';
import { hostAuthMiddleware as hostAuth, hostMfaMiddleware as hostMfa } from '../features/accounts';
import rateLimit from '../platform/rate-limit.middleware';
import { beaconBodyMiddleware as beaconBody } from '../features/readers';
import signedIn from '../platform/signed-in.middleware';

export default {
  'beacon-body': beaconBody,
  'delete-body': deleteBody,
  'host-auth': hostAuth,
  'host-mfa': hostMfa,
  'rate-limit': rateLimit,
  'signed-in': signedIn,
};
