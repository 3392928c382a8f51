import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const ambassadorKeys = { card: ['user', 'ambassador'] as const };

/** The signed-in user's ambassador card (spec B §7); a 404 means the user is not an ambassador. */
export const useAmbassador = () =>
  useQuery({
    queryKey: ambassadorKeys.card,
    queryFn: () => api(endpoints.ambassador.own),
    retry: false,
  });
