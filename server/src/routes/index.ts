import { routes as admin } from './admin';
import { routes as contentApi } from './content-api';

export default {
  'content-api': { type: 'content-api', routes: contentApi },
  admin: { type: 'admin', routes: admin },
};
