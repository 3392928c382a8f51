import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import { SupportTicket, SupportTicketBody } from '../support.ts';

/** The support tickets. */
export const supportEndpoints = {
  /** The Contact Us call of spec A §7 Support. */
  contact: endpoint({
    access: 'account',
    tag: 'support',
    method: 'POST',
    path: '/api/v1.0/support/dashboard',
    headers: AccountHeaders,
    body: SupportTicketBody,
    response: SupportTicket,
  }),
};
