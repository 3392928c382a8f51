import { type RawBuilder, sql } from 'kysely';
import { sessionLive } from './identity.store.ts';

/**
 * Whether a session is live (not revoked, not expired), as an SQL expression another query may
 * select (the guards read it with the caller's membership in one round trip): null for no session.
 */
export const liveSessionOf = (sessionId: string): RawBuilder<boolean | null> =>
  sql<boolean | null>`(select ${sessionLive('s')} from sessions s where s.id = ${sessionId})`;
