import type { SetupIntent } from '@ebs/contract';
import { Spin } from 'antd';
import { lazy, Suspense, useEffect } from 'react';
import { CardEntry } from './card-entry';
import { useCardProvider } from './card-provider';

// Stripe.js and Stripe Elements are fetched only by a console whose card provider is Stripe, and
// only when a card entry opens: never by the local default, never by the sign-in page.
const StripeCardEntry = lazy(() => import('./stripe-card-entry'));

export interface ProviderCardEntryProps {
  /** The id of the form, for a submit button outside it (the dialog's Add, the wizard's Create). */
  formId: string;
  /** The setup intent to confirm; nothing is confirmed until it has arrived. */
  setupIntent: SetupIntent | undefined;
  /** True from the submit until the provider has answered. */
  onBusyChange: (busy: boolean) => void;
  /** The confirmed setup intent's payment method, to attach to the account. */
  onConfirmed: (paymentMethod: string) => void;
  /** Whether the card provider is loaded and its form can be submitted (spec A §2: Add waits for it). */
  onReadyChange: (ready: boolean) => void;
}

/** The card entry of the configured card provider: the local processor's fields, or Stripe's Payment Element. */
export function ProviderCardEntry({ onReadyChange, ...props }: ProviderCardEntryProps) {
  const provider = useCardProvider();
  const localReady = provider?.name === 'local' && props.setupIntent !== undefined;

  useEffect(() => {
    if (provider?.name !== 'stripe') onReadyChange(localReady);
  }, [provider, localReady, onReadyChange]);

  if (!provider) return <Spin />;
  if (provider.name === 'local') return <CardEntry {...props} />;
  return (
    <Suspense fallback={<Spin />}>
      <StripeCardEntry publishableKey={provider.publishableKey} onReadyChange={onReadyChange} {...props} />
    </Suspense>
  );
}
