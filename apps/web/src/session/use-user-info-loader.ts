import { endpoints, USER_INFO_DELAY_MS } from '@ebs/contract';
import { useEffect } from 'react';
import { api } from '../api/client';
import { setUser } from './session-store';

/** spec B §4: after the header loads, the user info is fetched once, one second later. */
export function useUserInfoLoader() {
  useEffect(() => {
    const timer = setTimeout(() => {
      api(endpoints.users.info)
        .then(setUser)
        .catch((error: unknown) => console.error('Failed to load user info', error));
    }, USER_INFO_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
}
