import type { Endpoint } from '../endpoint.ts';
import { accountEndpoints } from './accounts.ts';
import { adminEndpoints } from './admin.ts';
import { ambassadorEndpoints } from './ambassador.ts';
import { billingEndpoints } from './billing.ts';
import { cardEndpoints } from './cards.ts';
import { forwardingEndpoints } from './forwarding.ts';
import { identityEndpoints } from './identity.ts';
import { keyEndpoints } from './keys.ts';
import { notifyEndpoints } from './notify.ts';
import { processorEndpoints } from './processor.ts';
import { rpcEndpoints } from './rpc.ts';
import { settingEndpoints } from './settings.ts';
import { supportEndpoints } from './support.ts';
import { systemEndpoints } from './system.ts';
import { usageEndpoints } from './usage.ts';
import { userEndpoints } from './users.ts';

/**
 * Every endpoint of the API, by domain: the one table the server registers from and the web
 * client calls through (docs/decisions.md, "Endpoints are one typed table in the contract").
 */
export const endpoints = {
  identity: identityEndpoints,
  users: userEndpoints,
  accounts: accountEndpoints,
  keys: keyEndpoints,
  billing: billingEndpoints,
  cards: cardEndpoints,
  processor: processorEndpoints,
  usage: usageEndpoints,
  rpc: rpcEndpoints,
  forwarding: forwardingEndpoints,
  notify: notifyEndpoints,
  support: supportEndpoints,
  ambassador: ambassadorEndpoints,
  settings: settingEndpoints,
  system: systemEndpoints,
  admin: adminEndpoints,
} satisfies Record<string, Record<string, Endpoint>>;

/** The table as a list, each endpoint with its name (`keys.create`). */
export const endpointList = (): Array<{ name: string; endpoint: Endpoint }> =>
  Object.entries(endpoints).flatMap(([domain, table]) =>
    Object.entries(table as Record<string, Endpoint>).map(([name, endpoint]) => ({
      name: `${domain}.${name}`,
      endpoint,
    })),
  );
