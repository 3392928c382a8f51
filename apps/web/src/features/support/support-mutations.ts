import type { SupportTicket, SupportTicketBody } from '@ebs/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Contact Us (spec A §7 Support): sends the message as a ticket of the account. */
export const useSubmitTicket = (accountId: string) =>
  useMutation({
    mutationFn: (body: SupportTicketBody) =>
      api.post<SupportTicket>('/api/v1.0/support/dashboard', { accountId, body }),
  });
