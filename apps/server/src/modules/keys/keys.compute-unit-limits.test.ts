import { type ApiKeySettings, KeyRuleMessages, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { gatewayAccounts } from '../accounts/billing-status.ts';
import { KeyCache } from './key-cache.ts';
import { expectRefused, KEY, keyRow, keyUser } from './keys.test-kit.ts';

describe.each(testDatabases)('a key’s own compute unit limits on $name', (database) => {
  const server = serverFor(database, { RPC_RATE_LIMIT_PER_SECOND: '1000', RPC_RATE_LIMIT_PER_DAY: '1000' });

  async function keyWithSettings() {
    const m = await keyUser(server());
    const { id } = await m.createOk('priced');
    const settings = async () => (await m.c.get<ApiKeySettings>(`${KEY}/${id}/settings`, m.h)).body.data;
    const save = (body: unknown) => m.post<ApiKeySettings>(`${id}/settings`, body);
    return { m, id, settings, save };
  }

  it('reads and saves them like the request limits, with no deployment ceiling; a change moves the key’s version', async () => {
    const { id, settings, save } = await keyWithSettings();
    expect(await settings()).toMatchObject({ computeUnitsPerSecond: null, computeUnitsPerDay: null });
    const before = await keyRow(server(), id);

    const saved = await save({ computeUnitsPerSecond: 1_000_000_000, computeUnitsPerDay: 2_500 });

    expect({ status: saved.status, message: saved.body.message }).toEqual({
      status: 200,
      message: Messages.apiKeySettingsSaved,
    });
    expect(saved.body.data).toMatchObject({
      computeUnitsPerSecond: 1_000_000_000,
      computeUnitsPerDay: 2_500,
      requestsPerSecond: null,
      requestsPerDay: null,
    });
    expect(await settings()).toEqual(saved.body.data);
    const after = await keyRow(server(), id);
    expect(after).toMatchObject({ compute_units_per_second: 1_000_000_000, compute_units_per_day: 2_500 });
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());

    // The request limits keep their ceiling; the compute unit limits have none.
    expectRefused(
      await save({ requestsPerSecond: 1001, computeUnitsPerSecond: 1001 }),
      400,
      KeyRuleMessages.limitAboveCeiling('Requests per second', 1000),
    );
    // What is not a whole number from 1 to 1 000 000 000, or null, is refused by the schema.
    for (const wrong of [-5, 1.5, 1_000_000_001]) {
      expect((await save({ computeUnitsPerDay: wrong })).status).toBe(400);
    }
    expect(await settings()).toEqual(saved.body.data);

    // Null takes a limit away; the other stays.
    const cleared = await save({ computeUnitsPerSecond: null });
    expect(cleared.body.data).toMatchObject({ computeUnitsPerSecond: null, computeUnitsPerDay: 2_500 });
    expect(await settings()).toEqual(cleared.body.data);
  });

  it('the gateway’s key cache carries them, and re-reads them when they change', async () => {
    const { id, save } = await keyWithSettings();
    const cache = new KeyCache(server().db, gatewayAccounts.enabled, { refreshMs: 60_000 });
    try {
      const first = await cache.get(id);
      expect(first?.limits).toEqual({
        requestsPerSecond: null,
        requestsPerDay: null,
        computeUnitsPerSecond: null,
        computeUnitsPerDay: null,
      });

      expect((await save({ requestsPerDay: 900, computeUnitsPerSecond: 300, computeUnitsPerDay: 40_000 })).status).toBe(
        200,
      );
      await cache.refresh();

      const changed = await cache.get(id);
      expect(changed?.version).not.toBe(first?.version);
      expect(changed?.limits).toEqual({
        requestsPerSecond: null,
        requestsPerDay: 900,
        computeUnitsPerSecond: 300,
        computeUnitsPerDay: 40_000,
      });
    } finally {
      cache.stop();
    }
  });
});
