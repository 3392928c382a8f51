import { generateKeyPairSync } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import { decodeJwt } from 'jose';
import type { RouteEntry } from '../app/app.ts';
import { isGuarded } from '../http/guards.ts';
import { IdTokens } from '../modules/identity/tokens.ts';
import type { ForeignAccount } from './foreign-account.ts';
import { SEPOLIA } from './foreign-account.ts';
import type { TestServer } from './server.ts';

/**
 * Routes marked public, each with the reason. A route is signed-in unless listed here, so none can
 * become reachable without a session unnoticed.
 */
export const PUBLIC = new Set([
  'GET /api/v1.0/config', // what the web app reads before anyone signs in
  'GET /api/v1.0/health', // the load balancer's check
  'GET /api/v1.0/user/checkIsValidCode', // the sign-up form checks a referral code
  // The RPC gateway: an API key names the account (rpc.test.ts).
  'POST /api/v1.0/rpc/:chain/:net',
  'POST /api/v1.0/rpc/*',
  'OPTIONS /api/v1.0/rpc/*',
  // Each network's head and state and its last 24 hours: no account's data (network-status.test.ts).
  'GET /api/v1.0/rpc/status',
  // What calls cost: the same for everyone (price-book.test.ts).
  'GET /api/v1.0/rpc/pricing',
  // The identity service's steps before a session exists; sign-out also ends a session it cannot verify.
  'POST /auth/sign-up',
  'POST /auth/confirm-sign-up',
  'POST /auth/resend-code',
  'POST /auth/sign-in',
  'POST /auth/sign-in/mfa',
  'POST /auth/refresh',
  'POST /auth/sign-out',
  'POST /auth/forgot-password',
  'POST /auth/confirm-forgot-password',
  'GET /auth/third-party/:provider/start',
  'GET /auth/third-party/:provider/callback',
]);

/** Signed-in routes that name no account, each with the reason. */
export const USER_SCOPED = new Set([
  'GET /api/v1.0/account', // the caller's own accounts
  'POST /api/v1.0/account', // a new account, owned by the caller
  'GET /api/v1.0/user', // the caller's own profile
  'GET /api/v1.0/user/ambassador', // the caller's own ambassador card
  'GET /api/v1.0/setting', // product-wide settings
  'GET /api/v1.0/transaction/type', // the product's list of transaction types
  'POST /auth/change-password', // the caller's own password
  'POST /auth/mfa/setup', // the caller's own two-factor sign-in
  'POST /auth/mfa/enable',
  'POST /auth/mfa/disable',
]);

/** Routes outside the console API and the identity service, by prefix, each with what guards it. */
export const OUTSIDE = {
  '/api/docs': 'the OpenAPI document and its viewer: public',
  '/dev/': 'the e-mail outbox: registered only outside production',
  '/admin/': 'the admin command line: loopback and the admin token of DATA_DIR',
  '/processor/': "the local card processor's hosted endpoints: a setup intent's client secret, a charge's random id",
  '/metrics': "the operator's metrics: 404 without METRICS_TOKEN, its bearer token otherwise (app/metrics.test.ts)",
} as const;

export const keyOf = (r: RouteEntry) => `${r.method} ${r.url}`;
export const outsideKind = (r: RouteEntry) =>
  (Object.keys(OUTSIDE) as (keyof typeof OUTSIDE)[]).find((prefix) => r.url.startsWith(prefix));

/** Every route but the HEAD twins Fastify adds to GET routes. */
export const allRoutes = (server: TestServer) => server.routes.filter((r) => r.method !== 'HEAD');
/** The routes the guard answers for, that need a session. */
export const signedInRoutes = (server: TestServer) => allRoutes(server).filter((r) => isGuarded(r.url) && !r.public);

const FABRICATED_ID = '00000000-0000-4000-8000-000000000001';
export const fabricated = (url: string) => url.replace(/:[A-Za-z]+/g, FABRICATED_ID);
export const withoutBody = (method: string) => method === 'GET' || method === 'DELETE';

/** An identity token of the same session as `idToken`, signed with the server's own key, expired a minute ago. */
export function expiredToken(server: TestServer, idToken: string): Promise<string> {
  const claims = decodeJwt(idToken);
  const tokens = new IdTokens(server.deps.secrets.signingKey, server.deps.config.PUBLIC_URL, -60);
  return tokens.sign({
    sub: String(claims.sub),
    sid: String(claims.sid),
    email: String(claims.email),
    givenName: 'Test',
    familyName: 'User',
  });
}

/** The same claims, unexpired, signed with a key the server never made. */
export function forgedToken(server: TestServer, idToken: string): Promise<string> {
  const claims = decodeJwt(idToken);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return new IdTokens(privateKey, server.deps.config.PUBLIC_URL, 3600).sign({
    sub: String(claims.sub),
    sid: String(claims.sid),
    email: String(claims.email),
    givenName: 'Test',
    familyName: 'User',
  });
}

/** One request of the matrix, as sent. */
export interface Probe {
  method: string;
  path: string;
  body?: unknown;
  /** Names of the inputs that carry an id of the other account's object the route acts on. */
  subjects: string[];
}

/** Inputs that name the object a route acts on (or the account itself): a stranger sending one of the other account's must be refused. */
const SUBJECT_FIELDS = new Set(['cardId', 'id', 'transactionId', 'accountId', 'gasFeeFundingWalletId', 'cardToken']);

interface ObjectSchema {
  properties?: Record<string, TSchema>;
  required?: string[];
}

const today = () => new Date().toISOString().slice(0, 10);

/** What a caller would send for an input named `name`, with the other account's ids where one fits. */
function valueFor(name: string, url: string, foreign: ForeignAccount): unknown {
  const { ids } = foreign;
  const wallet = url.includes('gas-fee-funding-wallet') ? ids.gasWalletId : ids.walletId;
  const values: Record<string, unknown> = {
    accountId: ids.accountId,
    apiKeyId: ids.keyId,
    cardId: ids.cardId,
    cardToken: ids.cardToken,
    transactionId: ids.transactionId,
    walletId: wallet,
    id: wallet,
    tokenForwardingWalletId: ids.walletId,
    webhookId: ids.webhookId,
    gasFeeFundingWalletId: ids.gasWalletId,
    address: ids.walletAddress,
    destinationPublicAddress: ids.destinationAddress,
    smartContractAddress: ids.destinationAddress,
    network: SEPOLIA,
    token: 'ETH',
    minimumForwardingAmount: '0.01',
    newStatus: 'DISABLED',
    name: 'Probe name',
    apiKeyName: 'Probe name',
    accountName: 'Probe name',
    expireMonth: 12,
    expireYear: 2031,
    depositAmount: 50,
    message: 'A message long enough to be sent.',
    url: 'http://127.0.0.1:9/hook',
    type: 'WELCOME_CREDIT',
    settingName: 'autoDeposit',
    fields: { autoDepositEnabled: false },
    featureName: 'TOKEN_FORWARDING',
    dateStart: today(),
    dateEnd: today(),
    provider: 'local',
  };
  return values[name];
}

/** The value a required input with no known name gets: enough to pass its type. */
function placeholder(schema: TSchema): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return false;
  if (schema.type === 'object') return {};
  return 'probe';
}

/** The known inputs of an object schema, and a placeholder for each other required one. */
function inputsOf(schema: TSchema | undefined, url: string, foreign: ForeignAccount) {
  const object = (schema ?? {}) as ObjectSchema;
  const values: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(object.properties ?? {})) {
    const value = valueFor(name, url, foreign);
    if (value !== undefined) values[name] = value;
    else if (object.required?.includes(name)) values[name] = placeholder(property);
  }
  return values;
}

/**
 * The requests a stranger makes to a route with the other account's ids in every input that takes
 * one: each path parameter, the query and the body, from the route's own schemas. A route whose
 * path takes a member's id is tried with the owner's, a member's and an invitation's.
 */
export function probesOf(route: RouteEntry, foreign: ForeignAccount): Probe[] {
  const { ids } = foreign;
  const query = inputsOf(route.schema.querystring, route.url, foreign);
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const body = withoutBody(route.method) ? undefined : inputsOf(route.schema.body, route.url, foreign);
  const subjects = [...Object.keys(query), ...Object.keys(body ?? {})].filter((name) => SUBJECT_FIELDS.has(name));
  const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
  const choices = params.includes('userId') ? [ids.ownerId, ids.memberId, ids.invitationId] : [undefined];
  return choices.map((userId) => {
    const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) =>
      name === 'userId' && userId ? userId : String(valueFor(name, route.url, foreign) ?? FABRICATED_ID),
    );
    const idParams = params.filter((name) => name !== 'provider');
    return {
      method: route.method,
      path: search ? `${path}?${search}` : path,
      body,
      subjects: [...idParams, ...subjects],
    };
  });
}

/**
 * The names of the account's identifying values that appear in an answer, leaving out those the
 * caller sent themselves (an answer may echo its own request).
 */
export function leakedNames(answerText: string, probe: Probe, foreign: ForeignAccount): string[] {
  const sent = `${probe.path} ${JSON.stringify(probe.body ?? '')}`.toLowerCase();
  const text = answerText.toLowerCase();
  return Object.entries(foreign.identifying)
    .filter(([, value]) => !sent.includes(value.toLowerCase()) && text.includes(value.toLowerCase()))
    .map(([name]) => name);
}
