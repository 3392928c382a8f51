import { Messages } from '@ebs/contract';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Spin } from 'antd';
import { type FormEvent, useEffect, useState } from 'react';
import { toast } from '../../lib/toast';
import type { ProviderCardEntryProps } from './provider-card-entry';

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js once per publishable key, as Stripe asks; a failed load is tried again at the next opening. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
    stripe.catch(() => loaded.delete(publishableKey));
  }
  return stripe;
}

type StripeCardEntryProps = ProviderCardEntryProps & { publishableKey: string };

/**
 * The card entry when Stripe is the card provider: Stripe's Payment Element, in Stripe's frame (the
 * console never sees the card). The browser confirms the setup intent with Stripe directly, which
 * runs 3-D Secure in its own dialog and redirects only when the payment method requires it.
 */
export default function StripeCardEntry({ publishableKey, setupIntent, ...props }: StripeCardEntryProps) {
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const { onReadyChange } = props;

  useEffect(() => {
    let open = true;
    onReadyChange(false);
    stripeFor(publishableKey).then(
      (instance) => {
        if (open && instance) setStripe(instance);
      },
      (error: unknown) => {
        if (open) toast.error(error);
      },
    );
    return () => {
      open = false;
    };
  }, [publishableKey, onReadyChange]);

  if (!stripe || !setupIntent) return <Spin />;
  return (
    // Keyed by the intent: Elements takes its client secret once.
    <Elements key={setupIntent.client_secret} stripe={stripe} options={{ clientSecret: setupIntent.client_secret }}>
      <StripeForm {...props} />
    </Elements>
  );
}

function StripeForm({ formId, onBusyChange, onConfirmed, onReadyChange }: Omit<ProviderCardEntryProps, 'setupIntent'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [pending, setPending] = useState(false);

  useEffect(() => {
    onBusyChange(pending);
  }, [pending, onBusyChange]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || pending) return;
    setPending(true);
    try {
      const result = await stripe.confirmSetup({
        elements,
        redirect: 'if_required',
        // Used only if a payment method must leave the page; cards confirm in place.
        confirmParams: { return_url: window.location.href },
      });
      if (result.error) {
        // Stripe's own message, e.g. "Your card was declined." (spec A §8).
        toast.error(result.error.message ?? Messages.unknownError);
        return;
      }
      const method = result.setupIntent.payment_method;
      const paymentMethod = typeof method === 'string' ? method : method?.id;
      if (result.setupIntent.status !== 'succeeded' || !paymentMethod) {
        toast.error(Messages.unknownError);
        return;
      }
      onConfirmed(paymentMethod);
    } catch (error) {
      toast.error(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <form id={formId} onSubmit={onSubmit}>
      <PaymentElement
        onReady={(element) => {
          onReadyChange(true);
          // The card number first, as the built-in entry does.
          element.focus();
        }}
        onLoadError={(event) => toast.error(event.error.message ?? Messages.unknownError)}
      />
    </form>
  );
}
