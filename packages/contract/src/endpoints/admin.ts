import { type Endpoint, endpoint } from '../endpoint.ts';
import { AdminCommandBody } from '../headers.ts';

/**
 * No session: the server's own hook lets in only loopback requests carrying the admin token of
 * DATA_DIR. Registered only on PGlite, and the answers are not the wrapper.
 */
const operator = { access: 'operator', tag: 'admin', method: 'POST', hidden: true } as const;

/** The operator's command line over HTTP. */
export const adminEndpoints = {
  /** Runs one command of the admin command line; answers its output. */
  command: endpoint({ ...operator, path: '/admin/command', body: AdminCommandBody }),
  /** A snapshot of the database, as a gzip file (its migration in `x-backup-migration`). */
  backup: endpoint({ ...operator, path: '/admin/backup' }),
} satisfies Record<string, Endpoint>;
