import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GasFeeFundingWallet } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { expectLimited } from '../../testing/limited.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';
import { setFeature } from '../accounts/accounts.test-kit.ts';
import { randomAddress } from './forwarding.test-kit.ts';
import { SEPOLIA, sepoliaOn } from './forwarding-api.test-kit.ts';
import { startReceiver } from './webhooks/webhooks.test-kit.ts';

/** The route's limits per minute (forwarding.routes.ts). */
const WEBHOOK_TESTS = 10;
const CHAIN_READS = 30;

/** A node that answers 0 to every call and counts the calls it was sent. */
async function countingNode() {
  let calls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const answer = (call: { id?: number }) => {
        calls++;
        return { jsonrpc: '2.0', id: call.id ?? 1, result: '0x0' };
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const node = await countingNode();
afterAll(() => node.close());

describe.each(testDatabases)('token forwarding calls that reach out, on $name', (database) => {
  const server = serverFor(database, { ...sepoliaOn(node.url), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const figures = { webhookTests: 0, webhooksSent: 0, chainReads: 0, nodeCalls: 0, limited: 0 };
  afterAll(() => reportFigures(`token forwarding limits (${database.name})`, figures));

  const person = async () => {
    const c = new Client(server().url);
    const user = await c.signUp();
    return { c, ...user };
  };
  const forwardingAccount = async (c: Client) => {
    const id = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'Forwarding' })).body.data.id;
    await setFeature(server().db, id, 'TOKEN_FORWARDING', true);
    return { 'ebs-account-id': id };
  };
  const call = (c: Client, h: Record<string, string>, method: string, path: string, body?: unknown) =>
    c.call(method, `/api/v1.0/token-forwarding${path}`, { headers: h, body });

  it('test webhooks sent by the members of one account, or by one user over accounts, stop at the limit', async () => {
    const receiver = await startReceiver([{ status: 200 }]);
    try {
      const owner = await person();
      const h = await forwardingAccount(owner.c);
      const member = await person();
      expect((await owner.c.post('/api/v1.0/account/user', { email: member.email }, h)).status).toBe(200);
      await member.c.get('/api/v1.0/account?limit=10&offset=0');
      const test = async (c: Client, headers: Record<string, string>) => {
        figures.webhookTests++;
        const answer = await call(c, headers, 'POST', '/testWebhook', { url: receiver.url });
        if (answer.status === 429) figures.limited++;
        return answer;
      };

      for (let i = 0; i < WEBHOOK_TESTS; i++) expect((await test(i % 2 ? member.c : owner.c, h)).status).toBe(200);
      expectLimited(await test(member.c, h));
      expectLimited(await test(owner.c, h));
      expect(receiver.received).toHaveLength(WEBHOOK_TESTS);

      // One user over two accounts: each account stays under its number, the user does not.
      const spreader = await person();
      const [first, second] = [await forwardingAccount(spreader.c), await forwardingAccount(spreader.c)];
      for (let i = 0; i < WEBHOOK_TESTS; i++) expect((await test(spreader.c, i % 2 ? second : first)).status).toBe(200);
      expectLimited(await test(spreader.c, second));
      figures.webhooksSent = receiver.received.length;
      expect(receiver.received).toHaveLength(2 * WEBHOOK_TESTS);
    } finally {
      await receiver.close();
    }
  });

  it('contract lookups and balance refreshes stop at the limit before reaching the node', async () => {
    const { c } = await person();
    const h = await forwardingAccount(c);
    const callsBefore = node.calls();
    const gas = await call(c, h, 'POST', '/gas-fee-funding-wallet', { network: SEPOLIA, name: 'Gas' });
    expect(gas.status).toBe(200);
    const gasId = (gas.body.data as GasFeeFundingWallet).id;
    const lookup = () =>
      call(c, h, 'GET', `/smart-contract-info?network=${SEPOLIA}&smartContractAddress=${randomAddress()}`);
    const refresh = () => call(c, h, 'POST', '/gas-fee-funding-wallet/balance', { id: gasId });

    for (const read of [lookup, refresh]) {
      for (let i = 0; i < CHAIN_READS; i++) {
        figures.chainReads++;
        expect((await read()).status).not.toBe(429);
      }
      const before = node.calls();
      figures.chainReads++;
      figures.limited++;
      expectLimited(await read());
      expect(node.calls()).toBe(before);
    }
    figures.nodeCalls = node.calls() - callsBefore;
  });
});
