import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { publicConfigQuery } from '../../api/public-config';

/** Who confirms cards in the browser, as the public configuration says (spec A §7: the setup-intent path names it). */
export type CardProviderChoice = { name: 'local' } | { name: 'stripe'; publishableKey: string };

const LOCAL: CardProviderChoice = { name: 'local' };

/**
 * The card provider of this console; undefined while the public configuration is on its way. The
 * local processor when the configuration names no other, or could not be read.
 */
export function useCardProvider(): CardProviderChoice | undefined {
  const config = useQuery(publicConfigQuery);
  const key = config.data?.cardProvider === 'stripe' ? config.data.stripePublishableKey : undefined;
  return useMemo(() => {
    if (config.isPending) return undefined;
    return key ? { name: 'stripe', publishableKey: key } : LOCAL;
  }, [config.isPending, key]);
}
