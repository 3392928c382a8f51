import { AppError, badRequest, isContactMessageLongEnough, Messages, type SupportTicket } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { RateLimiter, RateRule } from '../../http/rate-limit.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { accountName } from '../accounts/index.ts';
import { findUserNames } from '../identity/index.ts';
import * as store from './support.store.ts';

/** Enough for a follow-up or two; more in a few minutes is a script or a stuck button. */
export const TICKETS_PER_USER: RateRule = { limit: 5, windowSeconds: 10 * 60 };

/** spec A §5: the rule's own text for a missing, non-text, blank or short message alike. */
export function checkContactMessage(message: unknown): string {
  if (!isContactMessageLongEnough(message)) throw badRequest(Messages.contactMessageTooShort);
  return message.trim();
}

export interface TicketInput {
  accountId: string;
  userId: string;
  message: unknown;
}

/** Contact Us (spec A §7 Support): each message is kept as a ticket and e-mailed to support. */
export class SupportService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly supportEmail: string,
  ) {}

  async submit(input: TicketInput): Promise<SupportTicket> {
    const message = checkContactMessage(input.message);
    const { allowed, retryAfterSeconds } = await this.limiter.hit(`support:user:${input.userId}`, TICKETS_PER_USER);
    if (!allowed) {
      throw new AppError('Too Many Requests', Messages.contactTooMany, {
        'retry-after': String(retryAfterSeconds),
      });
    }
    const parties = await findTicketParties(this.db, input.accountId, input.userId);
    const ticket = await store.insertTicket(this.db, { ...input, message });
    try {
      await this.mailer.send({ to: this.supportEmail, ...ticketMail(ticket, input, parties, message) });
    } catch (error) {
      // A ticket support never heard of would wait forever; the user is told to try again instead.
      await store.deleteTicket(this.db, ticket.id);
      throw error;
    }
    return { ticketId: ticket.id };
  }
}

/** Account and user names may hold line breaks; a subject must stay one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function ticketMail(
  ticket: store.StoredTicket,
  input: TicketInput,
  parties: TicketParties,
  message: string,
): { subject: string; text: string } {
  return {
    subject: `Contact Us ticket from ${oneLine(parties.accountName)} (${input.accountId})`,
    text: [
      `Ticket: ${ticket.id}`,
      `Received: ${ticket.createdAt.toISOString()}`,
      `Account: ${oneLine(parties.accountName)} (${input.accountId})`,
      `User: ${oneLine(parties.userName)} <${parties.userEmail}> (${input.userId})`,
      '',
      'Message:',
      message,
    ].join('\n'),
  };
}

/** Who a ticket is from, as the support e-mail names them. */
export interface TicketParties {
  accountName: string;
  userName: string;
  userEmail: string;
}

/** The names of the ticket's account and user, and the user's e-mail; throws when either is unknown. */
async function findTicketParties(db: Db, accountId: string, userId: string): Promise<TicketParties> {
  const name = await accountName(db, accountId);
  if (name === undefined) throw new Error(`No account ${accountId}`);
  const [user] = await findUserNames(db, [userId]);
  if (!user) throw new Error(`No user ${userId}`);
  return {
    accountName: name,
    userName: `${user.givenName} ${user.familyName}`.trim(),
    userEmail: user.email,
  };
}
