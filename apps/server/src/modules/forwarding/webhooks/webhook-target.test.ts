import { ForwardingMessages } from '@ebs/contract';
import { describe, expect, it, vi } from 'vitest';
import { reportFigures } from '../../../testing/report.ts';
import { postWebhook } from './webhook-delivery.ts';
import { checkWebhookUrl, isPrivateAddress, WebhookTargetError } from './webhook-target.ts';
import { startReceiver } from './webhooks.test-kit.ts';

/**
 * Names under .test answer from here; every other name goes to the real resolver. rebind.test
 * answers a public address to its first lookup and a loopback one to every later lookup.
 */
const names = vi.hoisted(() => new Map<string, Array<{ address: string; family: number }>>());
const rebinds = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (host: string, options: { all: true }) => {
    if (!host.endsWith('.test')) return real.lookup(host, options);
    if (host === 'rebind.test') {
      rebinds.count += 1;
      return [{ address: rebinds.count === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    }
    const found = names.get(host);
    if (found) return found;
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  return { ...real, default: { ...real, lookup }, lookup };
});
names.set('loopback.test', [{ address: '127.0.0.1', family: 4 }]);
names.set('public.test', [{ address: '93.184.216.34', family: 4 }]);
names.set('metadata.test', [{ address: '169.254.169.254', family: 4 }]);
names.set('unique-local.test', [{ address: 'fd12:3456::1', family: 6 }]);
names.set('mapped.test', [{ address: '::ffff:192.168.1.1', family: 6 }]);
names.set('mixed.test', [
  { address: '93.184.216.34', family: 4 },
  { address: '10.0.0.7', family: 4 },
]);

const refusal = async (url: string, allowPrivate = false) => {
  try {
    await checkWebhookUrl(url, { allowPrivate });
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('the webhook target check', () => {
  const privateTargets = [
    'http://127.0.0.1/hook',
    'http://10.1.2.3/hook',
    'http://192.168.1.10:8080/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://localhost:3000/hook',
    'http://loopback.test/hook',
    'https://mixed.test/hook',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://2130706433/hook',
    // Other spellings of loopback that URL parsing turns into 127.0.0.1: octal, hex, short forms.
    'http://0177.0.0.1/hook',
    'http://0x7f.0.0.1/hook',
    'http://0x7f000001/hook',
    'http://017700000001/hook',
    'http://127.1/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://[0:0:0:0:0:ffff:127.0.0.1]/hook',
    'http://10.0.0.1/hook',
    'http://172.16.0.1/hook',
    'http://172.31.255.255/hook',
    'http://192.168.0.1/hook',
    'http://[fc00::1]/hook',
    'http://[fe80::1]/hook',
    'http://[::]/hook',
    'http://[::ffff:169.254.169.254]/hook',
    'http://[::ffff:a9fe:a9fe]/hook',
    'http://[64:ff9b::7f00:1]/hook',
    'http://100.127.255.254/hook',
    'http://metadata.test/computeMetadata/v1/',
    'http://unique-local.test/hook',
    'http://mapped.test/hook',
  ];

  it.each(privateTargets)('refuses %s', async (url) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(WebhookTargetError);
    expect(error).toMatchObject({
      statusCode: 400,
      reason: 'refused',
      message: ForwardingMessages.webhookTargetRefused,
    });
  });

  it.each(privateTargets)('allows %s when private targets are allowed', async (url) => {
    const addresses = await checkWebhookUrl(url, { allowPrivate: true });
    expect(addresses.length).toBeGreaterThan(0);
  });

  it('returns the addresses it checked for a public target', async () => {
    expect(await checkWebhookUrl('https://public.test/hook', { allowPrivate: false })).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(await checkWebhookUrl('http://[2606:4700:4700::1111]/', { allowPrivate: false })).toEqual([
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });

  it.each([
    'ftp://public.test/hook',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'not a url',
    'http://user:secret@public.test/hook',
    'https://:secret@public.test/hook',
  ])('refuses %s as not an http(s) URL', async (url) => {
    expect(await refusal(url, true)).toMatchObject({
      reason: 'invalid',
      message: ForwardingMessages.webhookUrlInvalid,
    });
  });

  it('says when the name does not resolve', async () => {
    expect(await refusal('https://nowhere.test/hook')).toMatchObject({
      reason: 'unreachable',
      message: 'The webhook URL could not be reached: nowhere.test was not found',
    });
  });

  it('tells private addresses from public ones', () => {
    const blocked = [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '100.127.255.255',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:c0a8:101::1',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1%eth0',
      'ff02::1',
      'not-an-address',
    ];
    const open = ['8.8.8.8', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '193.0.0.1'];
    open.push('2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1');
    expect(blocked.filter((a) => !isPrivateAddress(a))).toEqual([]);
    expect(open.filter((a) => isPrivateAddress(a))).toEqual([]);
    reportFigures('hardening: webhook targets', {
      'URLs refused': privateTargets.length,
      'addresses refused': blocked.length,
      'addresses allowed': open.length,
    });
  });
});

describe('a webhook delivery', () => {
  const post = (url: string, allowPrivate: boolean) =>
    postWebhook({ url, headers: {}, body: '{}', timeoutMs: 1000, allowPrivate });

  it('connects to the checked address only: a name that turns to loopback after the check reaches nothing there', async () => {
    const local = await startReceiver([{ status: 200 }]);
    try {
      const answer = await post(`http://rebind.test:${local.port}/hook`, false);
      expect(answer.statusCode).toBeNull();
      expect(local.received).toHaveLength(0);
      expect(rebinds.count).toBe(1);
    } finally {
      await local.close();
    }
  });

  it('does not follow a redirect to a private address', async () => {
    const inside = await startReceiver([{ status: 200 }]);
    // The redirecting target is on this machine too, so private targets are allowed for it here.
    const outside = await startReceiver([{ status: 307, headers: { location: inside.url } }]);
    try {
      expect(await post(outside.url, true)).toMatchObject({ statusCode: 307 });
      expect(outside.received).toHaveLength(1);
      expect(inside.received).toHaveLength(0);
    } finally {
      await Promise.all([inside.close(), outside.close()]);
    }
  });
});
