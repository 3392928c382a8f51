import { endpoints, type SupportTicketBody } from '@ebs/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Contact Us (spec A §7 Support): sends the message as a ticket of the account. */
export const useSubmitTicket = (accountId: string) =>
  useMutation({
    mutationFn: (body: SupportTicketBody) => api(endpoints.support.contact, { accountId, body }),
  });
