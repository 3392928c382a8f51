import { displayNetworkName, type TokenForwardingTransaction } from '@ebs/contract';
import { Drawer } from 'antd';
import { DetailRow } from '../../components/detail-row';
import { ForwardedAmount } from './forwarded-amount';
import { ForwardingTexts as T } from './forwarding-texts';

/** The receipt's gas used, as the chain reports it (a number, or a decimal or hex text). */
function gasUsed(transaction: TokenForwardingTransaction): string | undefined {
  const gas = transaction.metadata.transactionReceipt?.gasUsed;
  if (typeof gas === 'number' || typeof gas === 'bigint') return String(gas);
  if (typeof gas !== 'string' || gas === '') return undefined;
  return /^0x[0-9a-f]+$/i.test(gas) ? BigInt(gas).toString() : gas;
}

/** Native token forwards pay their gas from the deposit: what arrived is less by that gas. */
function lessArrived(transaction: TokenForwardingTransaction): boolean {
  const { originalBalance } = transaction.metadata;
  if (transaction.smartContractAddress !== null || !originalBalance) return false;
  const deposit = Number(originalBalance);
  const sent = Number(transaction.amount);
  return Number.isFinite(deposit) && Number.isFinite(sent) && sent < deposit;
}

/**
 * Transaction Details (spec B §2): the forward, with explorer links, its status and confirmations,
 * and, for a native token, why less arrived than was deposited; the webhook log as pretty JSON,
 * which, past 160 characters, folds under View with a copy button like any long detail value.
 */
export function TransactionDrawer({
  transaction,
  onClose,
}: {
  transaction: TokenForwardingTransaction;
  onClose: () => void;
}) {
  const { network } = transaction;
  const gas = gasUsed(transaction);
  return (
    <Drawer open title={T.transactionDetails} onClose={onClose} width="min(560px, 100vw)">
      <DetailRow title={T.transactionId} value={transaction.id} copyable />
      <DetailRow title={T.tokenForwardingWalletId} value={transaction.tokenForwardingWalletId} copyable />
      <DetailRow title={T.network} value={displayNetworkName(network)} />
      <DetailRow
        title={T.forwardStatus}
        value={T.forwardProgress(transaction.status, transaction.metadata.confirmations)}
      />
      {transaction.metadata.error && <DetailRow title={T.forwardError} value={transaction.metadata.error} />}
      <DetailRow
        title={T.amount}
        value={transaction.amount}
        display={<ForwardedAmount amount={transaction.amount} />}
      />
      {lessArrived(transaction) && (
        <DetailRow
          title={T.whyLess}
          value={T.gasPaidFromDeposit(transaction.metadata.originalBalance, transaction.token, transaction.amount)}
        />
      )}
      <DetailRow title={T.token} value={transaction.token} />
      <DetailRow
        title={T.fromWalletAddress}
        value={transaction.fromAddress}
        link={{ network, kind: 'address' }}
        copyable
      />
      <DetailRow title={T.toWalletAddress} value={transaction.toAddress} link={{ network, kind: 'address' }} copyable />
      <DetailRow
        title={T.transactionHash}
        value={transaction.metadata.transactionHash}
        link={{ network, kind: 'transaction' }}
        copyable
      />
      <DetailRow title={T.gasUsed} value={gas && T.wei(gas)} />
      <DetailRow title={T.webhookStatus} value={transaction.webhookStatus} />
      <DetailRow title={T.webhookAttempt} value={transaction.webhookAttempt} />
      <DetailRow title={T.webhookLog} value={JSON.stringify(transaction.webhookLog, null, 2)} />
    </Drawer>
  );
}
