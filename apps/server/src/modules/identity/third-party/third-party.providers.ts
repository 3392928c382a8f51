import {
  endpointPath,
  endpoints,
  THIRD_PARTY_SLOTS,
  type ThirdPartyProvider,
  type ThirdPartySlot,
} from '@ebs/contract';
import * as oidc from 'openid-client';
import type { Config } from '../../../config.ts';

/** How long discovery may take before the provider counts as down. */
const DISCOVERY_TIMEOUT_SECONDS = 10;

export interface ProviderSettings {
  slot: ThirdPartySlot;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const settingsKeys = {
  first: ['OIDC_FIRST_NAME', 'OIDC_FIRST_ISSUER', 'OIDC_FIRST_CLIENT_ID', 'OIDC_FIRST_CLIENT_SECRET'],
  second: ['OIDC_SECOND_NAME', 'OIDC_SECOND_ISSUER', 'OIDC_SECOND_CLIENT_ID', 'OIDC_SECOND_CLIENT_SECRET'],
} as const;

/** The slots offered in this environment: the second only outside prod (spec B §2, §9). */
const offeredSlots = (config: Config): ThirdPartySlot[] =>
  THIRD_PARTY_SLOTS.filter((slot) => slot === 'first' || config.APP_ENV !== 'prod');

/** A slot's settings when it is offered and fully configured. */
export function providerSettings(config: Config, slot: ThirdPartySlot): ProviderSettings | undefined {
  if (!offeredSlots(config).includes(slot)) return undefined;
  const [name, issuer, clientId, clientSecret] = settingsKeys[slot].map((key) => config[key]);
  if (!name || !issuer || !clientId || !clientSecret) return undefined;
  return { slot, name, issuer, clientId, clientSecret };
}

/** What the public configuration tells the web app: names and whether each button works, never a secret. */
export const publicProviders = (config: Config): ThirdPartyProvider[] =>
  offeredSlots(config).map((slot) => ({
    id: slot,
    name: config[settingsKeys[slot][0]],
    configured: providerSettings(config, slot) !== undefined,
  }));

/** Where a provider sends the browser back; the operator registers exactly this at the provider. */
export const redirectUri = (config: Config, slot: ThirdPartySlot) =>
  new URL(endpointPath(endpoints.identity.thirdPartyCallback.path, { provider: slot }), config.PUBLIC_URL).href;

/**
 * OpenID client configurations, discovered at first use and kept: the server starts whether or
 * not an issuer is up, and a failed discovery is tried again at the next sign-in.
 */
export class OpenIdClients {
  private readonly discovered = new Map<ThirdPartySlot, Promise<oidc.Configuration>>();

  get(settings: ProviderSettings): Promise<oidc.Configuration> {
    let found = this.discovered.get(settings.slot);
    if (!found) {
      found = discover(settings);
      this.discovered.set(settings.slot, found);
      found.catch(() => this.discovered.delete(settings.slot));
    }
    return found;
  }
}

function discover(settings: ProviderSettings): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  // http issuers are refused in production by the configuration check; elsewhere they are local test providers.
  const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
  // The client authenticates at the token endpoint with client_secret_post (docs/operations.md).
  return oidc.discovery(
    issuer,
    settings.clientId,
    settings.clientSecret,
    oidc.ClientSecretPost(settings.clientSecret),
    {
      execute,
      timeout: DISCOVERY_TIMEOUT_SECONDS,
    },
  );
}
