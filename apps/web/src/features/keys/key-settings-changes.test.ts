import { describe, expect, it } from 'vitest';
import { securityValues, settingsChanges } from './key-settings-changes';
import { keySettings, PUBLIC_PEM } from './keys-test-kit';

const saved = keySettings({
  allowedMethods: ['eth_call', 'eth_getLogs'],
  requestsPerDay: 1000,
  expiresAt: '2099-12-31T23:59:59.999Z',
  jwtPublicKeys: [
    { id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', algorithm: 'ES256', createdAt: '2026-11-20T10:00:00Z' },
  ],
});

describe('settingsChanges', () => {
  it('is empty for the saved settings, an expiry written another way included', () => {
    expect(settingsChanges(saved, securityValues(saved))).toEqual({});
    expect(settingsChanges(saved, { ...securityValues(saved), expiresAt: '2099-12-31T23:59:59.999+00:00' })).toEqual(
      {},
    );
  });

  it('names a reordered list, a cleared limit as null, and a cleared expiry as null', () => {
    const values = {
      ...securityValues(saved),
      allowedMethods: ['eth_getLogs', 'eth_call'],
      requestsPerDay: null,
      expiresAt: null,
    };
    expect(settingsChanges(saved, values)).toEqual({
      allowedMethods: ['eth_getLogs', 'eth_call'],
      requestsPerDay: null,
      expiresAt: null,
    });
  });

  it('names changed compute unit limits, a cleared one as null', () => {
    const limited = keySettings({ computeUnitsPerSecond: 100, computeUnitsPerDay: 1_000_000 });
    const values = { ...securityValues(limited), computeUnitsPerSecond: 250, computeUnitsPerDay: null };
    expect(settingsChanges(limited, values)).toEqual({ computeUnitsPerSecond: 250, computeUnitsPerDay: null });
    expect(settingsChanges(limited, securityValues(limited))).toEqual({});
  });

  it('sends the whole list of public keys when it changes: the kept ones by id, the pasted ones by PEM', () => {
    const kept = saved.jwtPublicKeys;
    expect(settingsChanges(saved, { ...securityValues(saved), jwtKeys: { kept, added: [PUBLIC_PEM] } })).toEqual({
      jwtPublicKeys: [{ id: kept[0]?.id }, { pem: PUBLIC_PEM }],
    });
    expect(settingsChanges(saved, { ...securityValues(saved), jwtKeys: { kept: [], added: [PUBLIC_PEM] } })).toEqual({
      jwtPublicKeys: [{ pem: PUBLIC_PEM }],
    });
    expect(settingsChanges(saved, { ...securityValues(saved), jwtKeys: { kept: [], added: [] } })).toEqual({
      jwtPublicKeys: [],
    });
  });
});
