import { ForwardingMessages } from '@ebs/contract';
import { describe, expect, it, vi } from 'vitest';
import { checkWebhookUrl, isPrivateAddress, WebhookTargetError } from './webhook-target.ts';

/** Names under .test answer from here; every other name goes to the real resolver. */
const names = vi.hoisted(() => new Map<string, Array<{ address: string; family: number }>>());
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (host: string, options: { all: true }) => {
    if (!host.endsWith('.test')) return real.lookup(host, options);
    const found = names.get(host);
    if (found) return found;
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  };
  return { ...real, default: { ...real, lookup }, lookup };
});
names.set('loopback.test', [{ address: '127.0.0.1', family: 4 }]);
names.set('public.test', [{ address: '93.184.216.34', family: 4 }]);
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
  });
});
