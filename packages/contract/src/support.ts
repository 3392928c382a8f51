import { type Static, Type } from '@sinclair/typebox';

/** spec A §5, §9: a contact message has at least 10 characters. */
export const CONTACT_MESSAGE_MIN = 10;
/** Ours: the spec sets no upper bound; this keeps one ticket to a readable e-mail. */
export const CONTACT_MESSAGE_MAX = 5000;

/** Spaces around the text are not a description of the issue, so they do not count. */
export const isContactMessageLongEnough = (message: unknown): message is string =>
  typeof message === 'string' && message.trim().length >= CONTACT_MESSAGE_MIN;

/** POST /api/v1.0/support/dashboard (spec A §3 Support ticket, §7 Support). */
export const SupportTicketBody = Type.Object(
  {
    message: Type.String({
      maxLength: CONTACT_MESSAGE_MAX,
      description: `at least ${CONTACT_MESSAGE_MIN} characters once trimmed`,
    }),
  },
  { additionalProperties: false },
);
export type SupportTicketBody = Static<typeof SupportTicketBody>;

export const SupportTicket = Type.Object({ ticketId: Type.String() });
export type SupportTicket = Static<typeof SupportTicket>;
