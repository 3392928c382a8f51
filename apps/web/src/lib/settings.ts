import { endpoints, type SettingName } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

/** A product setting by name (spec A §3): DEPOSIT with its minAmount, ADD_PAYMENT_CARD with mandatory. */
export const useSetting = (name: SettingName) =>
  useQuery({
    queryKey: ['setting', name] as const,
    queryFn: () => api(endpoints.settings.read, { query: { name } }),
    staleTime: 5 * 60_000,
  });
