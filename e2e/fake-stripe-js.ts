/** What the fake Stripe.js has seen in the page, read by the journey with page.evaluate. */
export interface FakeStripeJsRecord {
  /** The publishable key of every Stripe(pk) call. */
  keys: string[];
  /** The client secret each elements({ clientSecret }) call was given. */
  clientSecrets: string[];
  /** The types of the mounted elements, in mount order. */
  mounted: string[];
  /** The wrappers and app infos react-stripe-js and stripe-js registered. */
  registered: string[];
  /** Each confirmSetup call: whether it passed the page's own Elements, its redirect and return_url. */
  confirmations: Array<{ sameElements: boolean; redirect: string; returnUrl: string }>;
}

/** Stripe's message for a card refused at setup, which confirmSetup answers (spec A §8: the provider's own message). */
export const FAKE_STRIPE_DECLINE = 'Your card was declined.';

/**
 * A stand-in for https://js.stripe.com/endive/stripe.js, served to the browser by page.route: only
 * the part of Stripe.js that @stripe/stripe-js's loadStripe, @stripe/react-stripe-js's <Elements>
 * and <PaymentElement>, and stripe-card-entry.tsx call. An element mounts a visible placeholder
 * and is "ready" (as Stripe's iframe is once loaded) when the journey calls
 * window.__fakeStripe.fireReady(). confirmSetup declines as Stripe does for a refused card.
 */
export const FAKE_STRIPE_JS = `(() => {
  const record = { keys: [], clientSecrets: [], mounted: [], registered: [], confirmations: [] };
  let ready = false;
  const readyHandlers = new Set();
  record.fireReady = () => {
    ready = true;
    for (const handler of readyHandlers) handler({});
  };
  window.__fakeStripe = record;

  const createElement = (type) => {
    const handlers = {};
    let node = null;
    const element = {
      mount(target) {
        const parent = typeof target === 'string' ? document.querySelector(target) : target;
        node = document.createElement('div');
        node.setAttribute('data-testid', 'fake-stripe-element');
        node.textContent = 'Stripe ' + type + ' element (test stand-in)';
        parent.appendChild(node);
        record.mounted.push(type);
      },
      on(event, handler) {
        (handlers[event] ??= new Set()).add(handler);
        if (event === 'ready') {
          readyHandlers.add(handler);
          if (ready) setTimeout(() => handler({}), 0);
        }
        return element;
      },
      off(event, handler) {
        handlers[event]?.delete(handler);
        readyHandlers.delete(handler);
        return element;
      },
      update() {},
      // Stripe's element takes the focus into its frame; the stand-in has nothing to focus.
      focus() {},
      unmount() {
        node?.remove();
      },
      destroy() {
        node?.remove();
        for (const set of Object.values(handlers)) for (const handler of set) readyHandlers.delete(handler);
      },
    };
    return element;
  };

  function Stripe(publishableKey) {
    record.keys.push(publishableKey);
    let pageElements = null;
    const unsupported = () => Promise.reject(new Error('not part of the fake Stripe.js'));
    return {
      elements(options) {
        record.clientSecrets.push(options?.clientSecret ?? '');
        const created = new Map();
        pageElements = {
          create(type) {
            const element = createElement(type);
            created.set(type, element);
            return element;
          },
          getElement: (type) => created.get(type) ?? null,
          update() {},
          submit: async () => ({}),
        };
        return pageElements;
      },
      async confirmSetup(args) {
        record.confirmations.push({
          sameElements: args.elements === pageElements,
          redirect: args.redirect,
          returnUrl: args.confirmParams?.return_url ?? '',
        });
        return { error: { type: 'card_error', code: 'card_declined', message: ${JSON.stringify(FAKE_STRIPE_DECLINE)} } };
      },
      createToken: unsupported,
      createPaymentMethod: unsupported,
      confirmCardPayment: unsupported,
      registerAppInfo(info) {
        record.registered.push('app:' + info.name);
      },
      _registerWrapper(wrapper) {
        record.registered.push('wrapper:' + wrapper.name);
      },
    };
  }
  // The release train @stripe/stripe-js expects; loadStripe warns about any other.
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;
