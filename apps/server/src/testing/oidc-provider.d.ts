/** The few parts of oidc-provider (which ships no types) that the test OpenID providers use. */
declare module 'oidc-provider' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<AccountClaims> | AccountClaims;
  }
  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    claims?: Record<string, string[] | null>;
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined> | Account | undefined;
    cookies?: { keys?: string[] };
    ttl?: Record<string, number>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    listen(port: number, host: string, callback?: () => void): Server;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
