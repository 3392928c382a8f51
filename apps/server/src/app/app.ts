import http from 'node:http';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { frameworkErrors, registerErrorHandler } from '../http/errors.ts';
import { API_DOCS_PREFIX, registerGuards } from '../http/guards.ts';
import { memoryRateLimiter, redisRateLimiter } from '../http/rate-limit.ts';
import { acceptEmptyJsonBody } from '../http/reply.ts';
import { refuseUntabledRoute } from '../http/route.ts';
import { registerSecurityHeaders } from '../http/security-headers.ts';
import { refuseUnusableValues, validatorOptions } from '../http/validation.ts';
import { registerWeb } from '../http/web.ts';
import { outboxMailer, smtpMailer } from '../mail/mailer.ts';
import {
  AccountsService,
  accountRoutes,
  accountSettingsRoutes,
  gatewayAccounts,
  lockAccountRow,
} from '../modules/accounts/index.ts';
import { alertRoutes } from '../modules/alerts/index.ts';
import { ambassadorRoutes } from '../modules/ambassador/index.ts';
import { billingRoutes, claimWelcomeCredit } from '../modules/billing/index.ts';
import { cardRoutes, loadStripe } from '../modules/cards/index.ts';
import { devRoutes } from '../modules/dev/index.ts';
import { buildForwarding, forwardingRoutes } from '../modules/forwarding/index.ts';
import {
  callerChecks,
  IdentityService,
  IdTokens,
  identityRoutes,
  ThirdPartySignIn,
  TwoFactorService,
  thirdPartyRoutes,
  twoFactorRoutes,
} from '../modules/identity/index.ts';
import { insightRoutes } from '../modules/insight/index.ts';
import { KeysService, keyRoutes } from '../modules/keys/index.ts';
import { buildNotify, notifyRoutes } from '../modules/notify/index.ts';
import { processorRoutes } from '../modules/processor/index.ts';
import {
  isGatewayRequest,
  isGatewayUpgrade,
  RpcGateway,
  RpcHttp,
  RpcWebSockets,
  rpcRoutes,
} from '../modules/rpc/index.ts';
import { cardMandatory, settingRoutes } from '../modules/settings/index.ts';
import { SupportService, supportRoutes } from '../modules/support/index.ts';
import { usageRoutes } from '../modules/usage/index.ts';
import { userRoutes } from '../modules/users/index.ts';
import { derivedKey, loadSecrets } from '../secrets.ts';
import { adminRoutes } from './admin.routes.ts';
import { buildCardProvider } from './card-providers.ts';
import type { Deps } from './deps.ts';
import { buildJobs } from './job-registry.ts';
import { metricsRegistry, registerMetrics } from './metrics.ts';
import { buildPaymentServices } from './services.ts';

export interface BuildOptions {
  /** An open database (tests share one per file); otherwise opened from the configuration. */
  db?: Db;
  logger?: boolean;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: NodeJS.WritableStream;
}

/** Credentials, cookies and the admin token never reach the log. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-token"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

/**
 * A request as logged: an API key in the query string (the RPC page's URLs carry one) and the
 * authorization code a third-party provider sends back are hidden.
 */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&](?:x-api-key|code)=)[^&#]*/gi, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}

export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  accountScoped: boolean;
  accountHeaderOptional: boolean;
  /** The refusal's message for a member who is not the owner, on owner-only routes. */
  ownerOnly: string | undefined;
  /** The request schemas the route validates against, for tests generated from the route table. */
  schema: RouteRequestSchema;
}

export interface RouteRequestSchema {
  body?: TSchema;
  querystring?: TSchema;
  params?: TSchema;
  headers?: TSchema;
}

export interface Built {
  app: FastifyInstance;
  deps: Deps;
  /** Every route as registered, for tests that must cover all of them. */
  routes: RouteEntry[];
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<Built> {
  // The JSON-RPC gateway is answered on the raw request, before Fastify's router and hooks (its
  // hot path); everything else, and the gateway while the server closes (503), goes to Fastify.
  let gatewayHttp: RpcHttp | undefined;
  let gatewaySockets: RpcWebSockets | undefined;
  let closing = false;
  const app = Fastify({
    serverFactory: (fastifyHandler, settings) => {
      const server = http.createServer((request, response) => {
        if (gatewayHttp && !closing && isGatewayRequest(request)) gatewayHttp.handle(request, response);
        else fastifyHandler(request, response);
      });
      // What Fastify sets on a server it makes itself.
      server.keepAliveTimeout = settings.keepAliveTimeout as number;
      server.requestTimeout = settings.requestTimeout as number;
      server.setTimeout(settings.connectionTimeout as number);
      // WebSocket: the gateway's endpoints only; any other upgrade, or one while closing, is refused.
      server.on('upgrade', (request, socket, head) => {
        if (gatewaySockets && !closing && isGatewayUpgrade(request)) gatewaySockets.upgrade(request, socket, head);
        else
          socket.end(`HTTP/1.1 ${closing ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\n\r\n`);
      });
      return server;
    },
    logger:
      options.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: { paths: REDACT, censor: '[redacted]' },
            serializers: { req: requestForLog },
            stream: options.logStream,
          },
    ajv: validatorOptions,
    frameworkErrors,
    bodyLimit: 1024 * 1024,
    // Trust the nearest TRUST_PROXY hops for the client address (0: the socket's own).
    trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const db = options.db ?? (await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }));
  if (!options.db) {
    await migrateToLatest(db);
  }
  const secrets = await loadSecrets(config);
  const tokens = new IdTokens(secrets.signingKey, config.PUBLIC_URL, config.ID_TOKEN_TTL_SECONDS);
  // ioredis is loaded only where Redis is configured.
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 2_000,
      })
    : undefined;
  redis?.on('error', () => {
    // Reported by the limiter when a hit fails; ioredis keeps reconnecting on its own.
  });
  const limiter = redis ? redisRateLimiter(redis, app.log) : memoryRateLimiter();
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, app.log);
  const twoFactor = new TwoFactorService(db, config, secrets.dataKey, secrets.hmacSecret, limiter);
  const identity = new IdentityService(db, config, secrets.hmacSecret, tokens, mailer, limiter, twoFactor);
  const thirdParty = new ThirdPartySignIn(db, config, identity, limiter, app.log);
  const { provider: cardProvider, processor } = await buildCardProvider(config, db);
  const { cards, deposits } = buildPaymentServices(db, cardProvider);
  const accounts = new AccountsService(db, cards, secrets.dataKey, { cardMandatory, claimWelcomeCredit });
  const keys = new KeysService(db, lockAccountRow, {
    perSecond: config.RPC_RATE_LIMIT_PER_SECOND,
    perDay: config.RPC_RATE_LIMIT_PER_DAY,
  });
  const support = new SupportService(db, mailer, limiter, config.SUPPORT_EMAIL);
  const rpc = new RpcGateway(
    db,
    config,
    app.log,
    limiter,
    gatewayAccounts,
    derivedKey(secrets.hmacSecret, 'rpc filter ids'),
  );
  rpc.start();
  const rpcHttp = new RpcHttp(rpc, config, app.log);
  const rpcSockets = new RpcWebSockets(rpc, config, app.log);
  app.addHook('preClose', async () => {
    closing = true;
    rpcSockets.close();
  });
  const forwarding = buildForwarding({ db, config, secrets, rpc, mailer, log: app.log });
  const notify = buildNotify({ db, config, secrets, chains: forwarding.chains, mailer, log: app.log });
  // At close the engine gives back its forwards and the gateway writes its counted usage, before
  // the database (when the app opened it) closes.
  app.addHook('onClose', async () => {
    await forwarding.engine.stop();
    await notify.engine.stop();
    await rpc.close();
    redis?.disconnect();
    if (!options.db) await db.destroy();
  });
  const jobs = buildJobs({
    db,
    config,
    provider: cardProvider,
    mailer,
    flushUsage: () => rpc.meter.flush(),
    forwarding: () => forwarding.engine.tick(),
    webhooks: forwarding.deliverWebhooks,
    notify: () => notify.engine.tick(),
  });
  const deps: Deps = {
    config,
    db,
    secrets,
    tokens,
    limiter,
    mailer,
    identity,
    twoFactor,
    cardProvider,
    cards,
    accounts,
    deposits,
    keys,
    support,
    jobs,
    rpc,
    forwarding,
    notify,
  };

  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    refuseUntabledRoute(route);
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        accountScoped: route.config?.accountScoped === true,
        accountHeaderOptional: route.config?.accountHeaderOptional === true,
        ownerOnly: route.config?.ownerOnly,
        schema: {
          body: route.schema?.body as TSchema | undefined,
          querystring: route.schema?.querystring as TSchema | undefined,
          params: route.schema?.params as TSchema | undefined,
          headers: route.schema?.headers as TSchema | undefined,
        },
      });
    }
  });

  registerSecurityHeaders(app, config);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.PRODUCT_NAME} API`, version: '1.0' },
      components: {
        securitySchemes: { idToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ idToken: [] }],
    },
  });
  // No validator badge: the document is not sent to a third party, and the policy would block it.
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, uiConfig: { validatorUrl: null } });
  registerErrorHandler(app);
  refuseUnusableValues(app);
  acceptEmptyJsonBody(app);
  registerGuards(app, callerChecks(db, tokens));

  // Each plugin takes the few services it uses; the whole set here satisfies every one of them.
  const plugins: FastifyPluginAsyncTypebox<Deps>[] = [
    identityRoutes,
    twoFactorRoutes,
    userRoutes,
    ambassadorRoutes,
    accountRoutes,
    accountSettingsRoutes,
    settingRoutes,
    cardRoutes,
    billingRoutes,
    supportRoutes,
    usageRoutes,
    insightRoutes,
    alertRoutes,
    keyRoutes,
    forwardingRoutes,
    notifyRoutes,
    devRoutes,
    adminRoutes,
  ];
  for (const plugin of plugins) await app.register(plugin, deps);
  await app.register(rpcRoutes, { rpcHttp, status: rpc.status, prices: rpc.prices });
  gatewayHttp = rpcHttp;
  gatewaySockets = rpcSockets;
  registerMetrics(app, config.METRICS_TOKEN, metricsRegistry({ rpc, db, webSocketConnections: () => rpcSockets.size }));
  // The local processor's browser-facing routes exist only while it is the card provider.
  if (processor) await app.register(processorRoutes, { ...deps, processor });
  // Stripe's refunds and disputes reach the ledger through its signed events (the SDK loaded only then).
  if (config.CARD_PROVIDER === 'stripe' && config.STRIPE_WEBHOOK_SECRET) {
    const { StripeEvents, stripeWebhookRoutes } = await loadStripe();
    await app.register(stripeWebhookRoutes, { events: new StripeEvents(db, config.STRIPE_WEBHOOK_SECRET, app.log) });
  }
  await app.register(thirdPartyRoutes, { ...deps, thirdParty });
  await registerWeb(app, config.WEB_DIST, config.PUBLIC_URL);
  return { app, deps, routes };
}
