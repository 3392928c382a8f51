import { endpoint } from '../endpoint.ts';
import { Ambassador } from '../users.ts';

/** The ambassador programme. */
export const ambassadorEndpoints = {
  /** The signed-in user's own ambassador card (spec B §7). */
  own: endpoint({
    access: 'user',
    tag: 'users',
    method: 'GET',
    path: '/api/v1.0/user/ambassador',
    response: Ambassador,
  }),
};
