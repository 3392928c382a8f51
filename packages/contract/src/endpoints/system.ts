import { type Endpoint, endpoint } from '../endpoint.ts';
import { HealthStatus, MailboxQuery, PublicConfig } from '../headers.ts';

/**
 * The development outbox: outside production only, to this machine's own sockets only (the route
 * refuses a request through a proxy as if it were not there). Its answers are not the wrapper.
 */
const outbox = { access: 'local', tag: 'dev', method: 'GET', query: MailboxQuery, hidden: true } as const;

const status = { access: 'public', tag: 'config', method: 'GET' } as const;

/** The public configuration, health, the development outbox. */
export const systemEndpoints = {
  /** What the web app reads at start-up (never a secret). */
  config: endpoint({ ...status, path: '/api/v1.0/config', response: PublicConfig }),
  /** The load balancer's check: this process answers and reaches its database. */
  health: endpoint({ ...status, path: '/api/v1.0/health', response: HealthStatus }),
  /** The mails sent, as a JSON list (newest first), optionally to one address. */
  mailbox: endpoint({ ...outbox, path: '/dev/mailbox.json' }),
  /** The same mails as an HTML page. */
  mailboxPage: endpoint({ ...outbox, path: '/dev/mailbox' }),
} satisfies Record<string, Endpoint>;
