import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import {
  type Behaviour,
  chargeObject,
  DECLINES,
  id,
  missing,
  now,
  paymentMethodObject,
  StripeFailure,
  TEST_CARDS,
  type TestCard,
} from './fake-stripe-objects.ts';

export type { TestCard } from './fake-stripe-objects.ts';

/**
 * A stand-in for Stripe's API on a random local port, for the real SDK to talk to (STRIPE_API_BASE).
 * It answers the calls the console makes with the objects and errors of Stripe's API reference,
 * keeps Stripe's idempotency rule (a key replays its first answer), and records every request.
 * Cards behave as Stripe's documented test cards do.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form-encoded body of a POST, or the query string of a GET. */
  params: URLSearchParams;
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  requests: RecordedRequest[];
  paymentIntents: Map<string, Stripe.PaymentIntent>;
  /**
   * What Stripe.js does in the browser when the card holder confirms a setup intent: a new card
   * payment method, attached to the intent's customer. Answers its id, or Stripe's error message
   * for a card refused at setup.
   */
  confirmSetupIntent(setupIntentId: string, card: TestCard): { paymentMethod?: string; error?: string };
  /** The next `count` answers to requests on this path are lost after the work is done (a cut connection). */
  loseAnswers(path: string, count: number): void;
  /** Holds every PaymentIntent creation this long, as a slow network would. */
  chargeDelayMs: number;
  /**
   * The next `count` answers to requests on this path are held after the work is done, until
   * releaseHeld(): a caller killed meanwhile never reads them (its charge was made all the same).
   */
  holdAnswers(path: string, count: number): void;
  /** How many answers are held now. */
  held(): number;
  /** Sends the held answers (to callers still there). */
  releaseHeld(): void;
  close(): Promise<void>;
}

export async function startFakeStripe(secretKey = `sk_test_${randomBytes(12).toString('hex')}`): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const customers = new Map<string, Stripe.Customer>();
  const setupIntents = new Map<string, Stripe.SetupIntent>();
  const paymentMethods = new Map<string, Stripe.PaymentMethod>();
  const behaviours = new Map<string, Behaviour>();
  const paymentIntents = new Map<string, Stripe.PaymentIntent>();
  const charges = new Map<string, Stripe.Charge>();
  const replays = new Map<string, { body: string; status: number; answer: unknown }>();
  const inFlight = new Set<string>();
  const lost = new Map<string, number>();
  const holds = new Map<string, number>();
  let heldAnswers: Array<() => void> = [];

  const metadataOf = (params: URLSearchParams) => {
    const metadata: Record<string, string> = {};
    for (const [key, value] of params) {
      const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
      if (name) metadata[name] = value;
    }
    return metadata;
  };
  const expands = (params: URLSearchParams) =>
    [...params].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);
  const withCharge = (intent: Stripe.PaymentIntent, expand: boolean): Stripe.PaymentIntent =>
    expand && typeof intent.latest_charge === 'string'
      ? { ...intent, latest_charge: charges.get(intent.latest_charge) ?? intent.latest_charge }
      : intent;
  const customerOf = (value: string | null) => {
    if (!value || !customers.has(value)) throw missing('customer', value ?? '');
    return value;
  };

  function createPaymentIntent(params: URLSearchParams): Stripe.PaymentIntent {
    const customer = customerOf(params.get('customer'));
    const methodId = params.get('payment_method') ?? '';
    const method = paymentMethods.get(methodId);
    if (!method) throw missing('PaymentMethod', methodId);
    if (method.customer !== customer) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: `The provided PaymentMethod ${methodId} does not belong to the Customer ${customer}.`,
      });
    }
    const intent = {
      id: id('pi'),
      object: 'payment_intent',
      amount: Number(params.get('amount')),
      amount_received: 0,
      currency: params.get('currency') ?? '',
      customer,
      payment_method: methodId,
      payment_method_types: ['card'],
      allowed_payment_method_types: ['card'],
      description: params.get('description'),
      metadata: metadataOf(params),
      status: 'requires_payment_method',
      capture_method: 'automatic',
      confirmation_method: 'automatic',
      client_secret: `${id('pi')}_secret_${randomBytes(8).toString('hex')}`,
      created: now(),
      livemode: false,
      last_payment_error: null,
      latest_charge: null,
      next_action: null,
    } as unknown as Stripe.PaymentIntent;
    const chargeId = id('ch');
    const behaviour = behaviours.get(methodId) ?? 'succeed';
    const decline = behaviour in DECLINES ? DECLINES[behaviour as keyof typeof DECLINES] : undefined;
    charges.set(chargeId, chargeObject(chargeId, intent, decline));
    Object.assign(intent, { latest_charge: chargeId });
    if (decline) {
      Object.assign(intent, {
        last_payment_error: { type: 'card_error', ...decline, charge: chargeId, payment_method: method },
      });
      paymentIntents.set(intent.id, intent);
      throw new StripeFailure(402, {
        type: 'card_error',
        ...decline,
        charge: chargeId,
        doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, '-')}`,
        payment_intent: intent,
        payment_method: method,
      });
    }
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
    paymentIntents.set(intent.id, intent);
    return intent;
  }

  function search(params: URLSearchParams): Stripe.ApiSearchResult<Stripe.PaymentIntent> {
    const query = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(params.get('query') ?? '');
    if (!query) throw new StripeFailure(400, { type: 'invalid_request_error', message: 'Invalid search query.' });
    const [, field = '', value] = query;
    const expand = expands(params).includes('data.latest_charge');
    const data = [...paymentIntents.values()]
      .filter((intent) => intent.metadata[field] === value)
      .map((intent) => withCharge(intent, expand));
    return {
      object: 'search_result',
      url: '/v1/payment_intents/search',
      has_more: false,
      next_page: null,
      data,
    } as unknown as Stripe.ApiSearchResult<Stripe.PaymentIntent>;
  }

  /** One API call: the object Stripe answers, or a StripeFailure. */
  function answer(method: string, path: string, params: URLSearchParams): unknown {
    const route = `${method} ${path.replace(/\/(cus|seti|pm|pi)_[0-9a-f]+/g, '/:id')}`;
    const objectId = /\/((?:cus|seti|pm|pi)_[0-9a-f]+)/.exec(path)?.[1] ?? '';
    switch (route) {
      case 'POST /v1/customers': {
        const customer = { id: id('cus'), object: 'customer', created: now(), livemode: false, email: null };
        customers.set(customer.id, { ...customer, metadata: metadataOf(params) } as unknown as Stripe.Customer);
        return customers.get(customer.id);
      }
      case 'POST /v1/setup_intents': {
        const intentId = id('seti');
        const intent = {
          id: intentId,
          object: 'setup_intent',
          client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
          customer: customerOf(params.get('customer')),
          usage: params.get('usage') ?? 'off_session',
          status: 'requires_payment_method',
          payment_method: null,
          payment_method_types: ['card'],
          allowed_payment_method_types: [params.get('allowed_payment_method_types[0]') ?? 'card'],
          metadata: metadataOf(params),
          last_setup_error: null,
          next_action: null,
          created: now(),
          livemode: false,
        } as unknown as Stripe.SetupIntent;
        setupIntents.set(intentId, intent);
        return intent;
      }
      case 'GET /v1/payment_methods/:id': {
        const method = paymentMethods.get(objectId);
        if (!method) throw missing('PaymentMethod', objectId);
        return method;
      }
      case 'POST /v1/payment_methods/:id': {
        const method = paymentMethods.get(objectId);
        if (!method?.card) throw missing('PaymentMethod', objectId);
        const month = Number(params.get('card[exp_month]') ?? method.card.exp_month);
        if (!(month >= 1 && month <= 12)) {
          throw new StripeFailure(402, {
            type: 'card_error',
            code: 'invalid_expiry_month',
            message: "Your card's expiration month is invalid.",
            param: 'card[exp_month]',
          });
        }
        method.card.exp_month = month;
        method.card.exp_year = Number(params.get('card[exp_year]') ?? method.card.exp_year);
        return method;
      }
      case 'POST /v1/payment_methods/:id/detach': {
        const method = paymentMethods.get(objectId);
        if (!method?.customer) throw missing('PaymentMethod', objectId);
        method.customer = null;
        return method;
      }
      case 'POST /v1/payment_intents': {
        const intent = createPaymentIntent(params);
        return withCharge(intent, expands(params).includes('latest_charge'));
      }
      case 'GET /v1/payment_intents/search':
        return search(params);
      default:
        throw new StripeFailure(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path}).`,
        });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const method = req.method ?? 'GET';
    const params = new URLSearchParams(method === 'GET' ? url.search : body);
    requests.push({ method, path: url.pathname, headers: req.headers, params });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      const holding = holds.get(url.pathname) ?? 0;
      if (holding > 0) {
        holds.set(url.pathname, holding - 1);
        heldAnswers.push(() => {
          if (!res.destroyed && !res.headersSent) deliver(status, payload, headers);
        });
        return;
      }
      deliver(status, payload, headers);
    };
    const deliver = (status: number, payload: unknown, headers: Record<string, string>) => {
      const left = lost.get(url.pathname) ?? 0;
      if (left > 0) {
        lost.set(url.pathname, left - 1);
        req.socket.destroy();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
      return;
    }
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const replayKey = typeof key === 'string' ? `${url.pathname} ${key}` : undefined;
    const earlier = replayKey ? replays.get(replayKey) : undefined;
    if (earlier) {
      if (earlier.body !== body) {
        send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
          },
        });
      } else send(earlier.status, earlier.answer, { 'idempotent-replayed': 'true' });
      return;
    }
    if (replayKey && inFlight.has(replayKey)) {
      send(409, {
        error: {
          type: 'invalid_request_error',
          code: 'idempotency_key_in_use',
          message: 'There is currently another in-progress request using this Stripe API Idempotency-Key.',
        },
      });
      return;
    }
    if (replayKey) inFlight.add(replayKey);
    try {
      if (method === 'POST' && url.pathname === '/v1/payment_intents' && fake.chargeDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, fake.chargeDelayMs));
      }
      let status = 200;
      let payload: unknown;
      try {
        payload = answer(method, url.pathname, params);
      } catch (failure) {
        if (!(failure instanceof StripeFailure)) throw failure;
        status = failure.status;
        payload = { error: { ...failure.error, request_log_url: 'https://dashboard.stripe.com/test/logs' } };
      }
      if (replayKey) replays.set(replayKey, { body, status, answer: payload });
      send(status, payload);
    } finally {
      if (replayKey) inFlight.delete(replayKey);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    paymentIntents,
    chargeDelayMs: 0,
    confirmSetupIntent(setupIntentId, card) {
      const intent = setupIntents.get(setupIntentId);
      if (!intent || intent.status === 'succeeded') throw new Error(`no setup intent ${setupIntentId} to confirm`);
      const known = TEST_CARDS[card.number];
      if (!known) return { error: 'Your card number is incorrect.' };
      if (known.behaviour === 'decline_setup') return { error: 'Your card was declined.' };
      const methodId = id('pm');
      paymentMethods.set(methodId, paymentMethodObject(methodId, intent.customer as string, card, known.brand));
      behaviours.set(methodId, known.behaviour);
      Object.assign(intent, { status: 'succeeded', payment_method: methodId });
      return { paymentMethod: methodId };
    },
    loseAnswers(path, count) {
      lost.set(path, count);
    },
    holdAnswers(path, count) {
      holds.set(path, count);
    },
    held: () => heldAnswers.length,
    releaseHeld() {
      const waiting = heldAnswers;
      heldAnswers = [];
      for (const answer of waiting) answer();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
