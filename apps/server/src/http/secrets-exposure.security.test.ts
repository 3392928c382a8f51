import { describe, expect, it } from 'vitest';
import { setFeature } from '../modules/accounts/accounts.test-kit.ts';
import { startReceiver } from '../modules/forwarding/webhooks/webhooks.test-kit.ts';
import { addCard } from '../testing/cards.ts';
import type { Client } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import { accountWithKey, rpcCall } from '../testing/keys.ts';
import { logSink } from '../testing/log-sink.ts';
import { reportFigures } from '../testing/report.ts';
import {
  cardDataColumns,
  codeAlone,
  findSecrets,
  serverSecrets,
  tableTexts,
  uniqueCardNumber,
  type Wanted,
} from '../testing/secret-scan.ts';
import { serverFor } from '../testing/server.ts';
import { codeOfStep, currentStep, turnOnTwoFactor } from '../testing/two-factor.ts';

/** The dev outbox writes each mail, codes included, to the log by design (README): that line only. */
const isOutboxLine = (line: string) => line.includes('"msg":"dev outbox: ');

describe('secrets through a whole journey', () => {
  const { lines, stream } = logSink();
  const server = serverFor(
    testDatabases[0]!,
    { LOG_LEVEL: 'trace', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FORWARDING_ENGINE: 'off', JOBS_INTERVAL_SECONDS: '0' },
    stream,
  );

  it('never reach the log, and sit in the database only sealed or hashed', async () => {
    const wanted: Wanted[] = [...serverSecrets(server().deps.secrets)];
    const keep = (name: string, value: string) => wanted.push({ name, value });
    const codes: string[] = [];
    const mailed = async (c: Client, email: string) => {
      const code = await c.mailedCode(email);
      codes.push(code);
      return code;
    };

    // Sign up, an account with an API key, gateway calls with the key in the query and in headers.
    const holder = await accountWithKey(server().url, server().db, '0');
    const c = holder.client;
    const email = (await c.get<{ email: string }>('/api/v1.0/user')).body.data.email;
    codes.push(await c.mailedCode(email));
    keep('password', 'correct horse 1');
    keep('API key', holder.key);
    keep('identity token', c.idToken);
    keep('refresh token', c.cookie.split('=')[1] ?? '');
    const call = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };
    await rpcCall(holder.url('ethereum/mainnet'), call);
    await rpcCall(`${server().url}/api/v1.0/rpc/ethereum/mainnet`, call, {
      'content-type': 'application/json',
      'x-api-key-id': holder.keyId,
      'x-api-key': holder.key,
    });

    // A card through the local processor, a deposit, the signing secret.
    const card = uniqueCardNumber();
    keep('card number', card);
    const cardId = await addCard(c, holder.accountId, card);
    const deposit = await c.post('/api/v1.0/payment/card/deposit', { cardId, depositAmount: 25 }, holder.headers);
    expect(deposit.status).toBe(200);
    const signing = await c.get<{ secret: string }>('/api/v1.0/account/signing-secret', holder.headers);
    keep('signing secret', signing.body.data.secret);

    // A forwarding wallet whose webhook carries a secret header, and a test delivery to it.
    await setFeature(server().db, holder.accountId, 'TOKEN_FORWARDING', true);
    const receiver = await startReceiver([{ status: 200 }]);
    const headerValue = 'shop-token-3f9a7c51e2';
    keep('webhook header value', headerValue);
    try {
      const webhookSetting = { url: receiver.url, header: 'X-Shop-Token', headerValue };
      const wallet = await c.post(
        '/api/v1.0/token-forwarding/wallet',
        {
          network: 'ETHEREUM_SEPOLIA',
          token: 'ETH',
          minimumForwardingAmount: '0.5',
          destinationPublicAddress: '0x2222222222222222222222222222222222222222',
          webhookSetting,
        },
        holder.headers,
      );
      expect(wallet.status).toBe(200);
      const tested = await c.post('/api/v1.0/token-forwarding/testWebhook', webhookSetting, holder.headers);
      expect(tested.status).toBe(200);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }

    // Two-factor sign-in, a password change, sign-out, a sign-in with the second step, a refresh.
    const twoFactor = await turnOnTwoFactor(c);
    keep('authenticator secret', twoFactor.secret);
    for (const [i, code] of twoFactor.recoveryCodes.entries()) keep(`recovery code ${i + 1}`, code);
    await c.post('/auth/change-password', { oldPassword: 'correct horse 1', newPassword: 'second secret 2' });
    keep('changed password', 'second secret 2');
    await c.post('/auth/sign-out');
    const challenge = await c.post<{ session: string }>('/auth/sign-in', { email, password: 'second secret 2' });
    keep('two-factor challenge', challenge.body.data.session);
    // The next step's code: the current one was spent turning two-factor sign-in on.
    const mfaCode = codeOfStep(twoFactor.secret, currentStep() + 1);
    codes.push(mfaCode);
    const signedIn = await c.post<{ idToken: string }>('/auth/sign-in/mfa', {
      session: challenge.body.data.session,
      code: mfaCode,
    });
    keep('identity token after two-factor sign-in', signedIn.body.data.idToken);
    keep('refresh token after two-factor sign-in', c.cookie.split('=')[1] ?? '');
    const refreshed = await c.post<{ idToken: string }>('/auth/refresh');
    keep('refreshed identity token', refreshed.body.data.idToken);
    keep('rotated refresh token', c.cookie.split('=')[1] ?? '');

    // Forgot password and reset.
    await c.post('/auth/forgot-password', { email });
    const resetCode = await mailed(c, email);
    const reset = await c.post('/auth/confirm-forgot-password', { email, code: resetCode, newPassword: 'third one 3' });
    expect(reset.status).toBe(200);
    keep('reset password', 'third one 3');
    await c.post('/auth/sign-out');

    const logged = lines.filter((line) => !isOutboxLine(line));
    const inLog = [{ where: 'the log', text: logged.join('\n') }];
    const codesWanted = codes.map((code, i) => ({ name: `one-time code ${i + 1}`, value: codeAlone(code) }));
    const anyJwt = { name: 'a JWT', value: /eyJ[\w-]{10,}\.[\w-]{10,}\./ };
    expect(logged.length).toBeGreaterThan(50);
    expect(findSecrets(inLog, [...wanted, ...codesWanted, anyJwt])).toEqual([]);

    // At rest: hashes and sealed values only; no card number, no column for one.
    const tables = await tableTexts(server().db);
    expect(tables.map((t) => t.where)).toContain('table payment_cards');
    expect(findSecrets(tables, [...wanted, anyJwt])).toEqual([]);
    expect(await cardDataColumns(server().db)).toEqual([]);

    reportFigures('hardening: secrets in logs and at rest', {
      'log lines scanned': logged.length,
      'outbox lines left out': lines.length - logged.length,
      'tables scanned': tables.length,
      'secrets looked for': wanted.length + codesWanted.length + 1,
      'secrets found': 0,
    });
  });
});
