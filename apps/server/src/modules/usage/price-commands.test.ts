import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, HELP, runCommand } from '../../app/commands.ts';
import type { Db } from '../../db/database.ts';
import { pglite } from '../../testing/databases.ts';

describe('the price commands', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await pglite.open());
  });
  afterAll(() => close());

  const run = (...argv: string[]) => runCommand(db, argv);

  it("sets a network's price per million compute units, and a forwarding fee per forward", async () => {
    const rpc = await run('price', 'set', 'RPC_API_POLYGON_MAINNET', '0.35');
    expect(rpc.text).toBe(
      'RPC_API_POLYGON_MAINNET now costs 0.35 USD per million compute units (0.00000035 USD per unit)',
    );
    expect(rpc.json).toEqual({
      network: 'polygon/mainnet',
      resourceName: 'RPC_API_POLYGON_MAINNET',
      usdPerMillionCu: '0.35',
      unitPrice: '0.00000035',
    });
    const fee = await run('price', 'set', 'TOKEN_FORWARDING_POLYGON_MAINNET', '0.1');
    expect(fee).toEqual({
      text: 'TOKEN_FORWARDING_POLYGON_MAINNET now costs 0.1 USD per forward',
      json: { resourceName: 'TOKEN_FORWARDING_POLYGON_MAINNET', unitPrice: '0.1' },
    });
  });

  it("sets and removes a class's, a method's and a cached call's compute units", async () => {
    expect((await run('price', 'cu', 'trace', '40')).text).toBe(
      'The trace class now costs 40 compute units (default 50)',
    );
    expect((await run('price', 'cu', 'eth_getProof', '1')).text).toBe('eth_getProof now costs 1 compute unit a call');
    expect((await run('price', 'cu', 'cached', '0')).json).toEqual({ name: 'cached', computeUnits: 0 });
    const list = await run('price', 'list');
    expect(list.json).toMatchObject({
      classes: expect.arrayContaining([
        { name: 'trace', computeUnits: 40, defaultComputeUnits: 50 },
        { name: 'read', computeUnits: 1, defaultComputeUnits: 1 },
      ]),
      cachedComputeUnits: 0,
      methods: [{ name: 'eth_getProof', computeUnits: 1 }],
    });
    expect(list.text).toContain('  trace         40  default 50\n');
    expect(list.text).toContain('  cached        0\n');
    expect(list.text).toContain("Methods' own compute units:\n  eth_getProof");

    expect((await run('price', 'cu', 'trace', 'default')).text).toBe(
      'The trace class costs its default 50 compute units again',
    );
    expect((await run('price', 'cu', 'eth_getProof', 'default')).json).toEqual({
      name: 'eth_getProof',
      computeUnits: null,
    });
    expect((await run('price', 'cu', 'cached', 'default')).text).toBe(
      "A call answered from the cache costs its class's units again",
    );
    const after = await run('price', 'list');
    expect(after.json).toMatchObject({ cachedComputeUnits: null, methods: [] });
    expect(after.text).toContain("  cached        its class's units\nMethods' own compute units: none");
  });

  it('lists each network per million compute units, the forwarding fee and each class, in its order', async () => {
    await run('price', 'set', 'TOKEN_FORWARDING_BSC_MAINNET', '0.2');
    const list = await run('price', 'list');
    const json = list.json as {
      networks: Array<{ network: string; usdPerMillionCu: string; unitPrice: string }>;
      forwardingFeeUsd: string;
      classes: Array<{ name: string }>;
    };
    expect(json.networks[0]).toEqual({
      network: 'ethereum/mainnet',
      resourceName: 'RPC_API_ETHEREUM_MAINNET',
      usdPerMillionCu: '20',
      unitPrice: '0.00002',
    });
    expect(json.forwardingFeeUsd).toBe('0.05');
    expect(json.classes.map((c) => c.name)).toEqual([
      'free',
      'read',
      'logs',
      'override',
      'send',
      'trace',
      'subscription',
      'notification',
    ]);
    const lines = list.text.split('\n');
    expect(lines[0]).toBe('RPC calls, USD per million compute units:');
    expect(lines[1]).toBe('  ethereum/mainnet  RPC_API_ETHEREUM_MAINNET   20 (0.00002 per unit)');
    expect(list.text).toContain('  logs          5  per started 1000 blocks, at most 10 times\n');
    // One network's fee differs from the rest: each network's fee is listed.
    expect(list.text).toContain('Token forwards, USD per forward:\n');
    expect(list.text).toContain('  TOKEN_FORWARDING_BSC_MAINNET       0.2\n');
  });

  it('refuses bad input with one line that says what is wanted', async () => {
    const cases: Array<[string[], string]> = [
      [['price', 'set', 'RPC_API_NOWHERE', '1'], 'Unknown resource "RPC_API_NOWHERE". Known: RPC_API_ETHEREUM_MAINNET'],
      [['price', 'set', 'RPC_API_ETHEREUM_MAINNET', '0.00002'], 'USD must be a price per million compute units'],
      [['price', 'set', 'RPC_API_ETHEREUM_MAINNET'], 'USD must be a price per million compute units'],
      [['price', 'set', 'TOKEN_FORWARDING_ETHEREUM_MAINNET', 'free'], 'USD must be a fee per forward'],
      [['price', 'cu', 'Eth_call', '1'], 'Unknown price class or method "Eth_call"'],
      [['price', 'cu'], 'Unknown price class or method ""'],
      [['price', 'cu', 'read', '1.5'], 'N must be a whole number of compute units from 0 to 1000000'],
      [['price', 'cu', 'read', '1000001'], 'N must be a whole number'],
      [['price', 'cu', 'read'], 'N must be a whole number'],
    ];
    for (const [argv, message] of cases) {
      const refused = await run(...argv).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, argv.join(' ')).toBeInstanceOf(CommandError);
      expect((refused as Error).message, argv.join(' ')).toContain(message);
      expect((refused as Error).message, argv.join(' ')).not.toContain('\n');
    }
    await expect(run('price', 'drop')).rejects.toThrow('Unknown command "price drop"');
  });

  it('says in --help what each price command takes', () => {
    expect(HELP).toContain('price set RESOURCE USD ');
    expect(HELP).toContain('USD per million compute');
    expect(HELP).toContain('price cu CLASS|cached|METHOD N|default');
    expect(HELP).toContain('price list ');
  });
});
