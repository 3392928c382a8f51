import { FullPageSpinner } from '../components/full-page-spinner';
import { isSignedIn, useSession } from '../session/session-store';
import { AppRouter } from './app-router';

/** Nothing but a spinner until the start-up check ends (spec A §1, spec B §1). */
export function AppRoot() {
  const session = useSession();
  if (!session.ready) return <FullPageSpinner />;
  return <AppRouter signedIn={isSignedIn(session)} />;
}
