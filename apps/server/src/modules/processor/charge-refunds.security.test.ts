import { describe, expect, it } from 'vitest';
import { CommandError, HELP, runCommand } from '../../app/commands.ts';
import { ownerView, ownerWithCard } from '../../testing/cards.ts';
import { testDatabases } from '../../testing/databases.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

describe.each(testDatabases)('refunds of local processor charges on $name', (database) => {
  const server = serverFor(database);

  /** An account that paid `amount` USD with the local processor, and the charge id from its receipt link. */
  const paid = async (amount: number) => {
    const { c, h, cardId, accountId } = await ownerWithCard(server().url);
    const deposit = await c.post<{ receiptUrl: string }>(
      '/api/v1.0/payment/card/deposit',
      {
        cardId,
        depositAmount: amount,
      },
      h,
    );
    expect(deposit.status).toBe(200);
    const chargeId = deposit.body.data.receiptUrl.split('/').pop() as string;
    const seen = () => ownerView(c, accountId);
    return { chargeId, seen };
  };
  const refund = (chargeId: string, amount?: string) =>
    runCommand(server().db, ['charge', 'refund', '--charge', chargeId, ...(amount ? ['--amount', amount] : [])]);

  it('an operator refund of a local charge takes the refunded part back from the credit, then the rest, and suspends the account', async () => {
    const { chargeId, seen } = await paid(50);
    const first = await refund(chargeId, '20.5');
    expect(first.text).toMatch(/^Refunded 20\.5 USD of charge ch_\w+ \(refund re_\w+, 20\.5 USD in all\); account /);
    expect(await seen()).toEqual({
      balance: 29.5,
      status: 'ACTIVE',
      rows: ['DEPOSIT_ONE_TIME 50', 'REFUND_CARD_DEPOSIT -20.5'],
    });
    await refund(chargeId);
    expect(await seen()).toEqual({
      balance: 0,
      status: 'SUSPENDED',
      rows: ['DEPOSIT_ONE_TIME 50', 'REFUND_CARD_DEPOSIT -20.5', 'REFUND_CARD_DEPOSIT -29.5'],
    });
    expect(await ledgerViolations(server().db, { settled: true })).toEqual([]);
  });

  it('an operator refund never takes more than a charge holds, even when refunds of one charge run at once', async () => {
    const { chargeId, seen } = await paid(30);
    const attempts = await Promise.allSettled(Array.from({ length: 6 }, () => refund(chargeId, '10')));
    const refused = attempts.filter((a) => a.status === 'rejected');
    expect(attempts.length - refused.length).toBe(3);
    for (const { reason } of refused as PromiseRejectedResult[]) {
      expect(reason).toBeInstanceOf(CommandError);
      expect((reason as Error).message).toMatch(/already refunded in full|At most/);
    }
    await expect(refund(chargeId)).rejects.toThrow('This charge is already refunded in full.');
    await expect(refund('ch_nosuchcharge')).rejects.toThrow('No such charge: ch_nosuchcharge.');
    await expect(refund('pi_not_local')).rejects.toThrow('--charge must be a local card processor charge id');
    const other = await paid(10);
    await expect(refund(other.chargeId, '10.01')).rejects.toThrow('At most 10 USD of this charge is left to refund.');
    expect((await seen()).balance).toBe(0);
    expect((await other.seen()).balance).toBe(10);
    expect(await ledgerViolations(server().db, { settled: true })).toEqual([]);
    expect(HELP).toContain('charge refund --charge ID [--amount N]');
    reportFigures('an operator refund of a local charge reverses it once', {
      database: database.name,
      concurrentRefunds: attempts.length,
      taken: attempts.length - refused.length,
      refused: refused.length,
      violations: 0,
    });
  });
});
