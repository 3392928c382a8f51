import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { setUser } from './session-store';

/**
 * The signed-in user read fresh from the server (the session store keeps it too): for screens that
 * decide on it, like the wizard's welcome credit offer and the two-factor settings.
 */
export const useFreshUser = () =>
  useQuery({
    queryKey: ['user'],
    queryFn: async () => {
      const user = await api(endpoints.users.info);
      setUser(user);
      return user;
    },
    staleTime: 0,
  });
