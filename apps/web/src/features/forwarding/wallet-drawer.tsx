import {
  type DestinationWallet,
  displayNetworkName,
  type GasFeeFundingWallet,
  type TokenForwardingWallet,
} from '@ebs/contract';
import { Button, Drawer, Empty, Space } from 'antd';
import type { ReactNode } from 'react';
import { DetailRow } from '../../components/detail-row';
import { formatDateTime } from '../../lib/format';
import { ForwardingTexts as T } from './forwarding-texts';

/** The wallet whose details are open; `wallet` is absent once a refreshed list no longer holds it. */
export type OpenedWallet =
  | { kind: 'forwarding'; wallet?: TokenForwardingWallet }
  | { kind: 'gasFee'; wallet?: GasFeeFundingWallet }
  | { kind: 'destination'; wallet?: DestinationWallet };

export type WalletAction = 'rename' | 'delete' | 'refreshBalance' | 'enable' | 'disable' | 'viewTransactions';

interface WalletDrawerProps {
  opened: OpenedWallet;
  /** True while an action runs: the buttons wait for it. */
  pending: boolean;
  onAction: (action: WalletAction) => void;
  onClose: () => void;
}

const dateText = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : undefined);
const networkText = (network: string | undefined) => (network ? displayNetworkName(network) : undefined);

function ForwardingRows({ wallet }: { wallet: TokenForwardingWallet }) {
  const link = { network: wallet.network, kind: 'address' } as const;
  return (
    <>
      <DetailRow title={T.id} value={wallet.id} copyable />
      <DetailRow title={T.address} value={wallet.publicAddress} link={link} copyable />
      <DetailRow title={T.network} value={networkText(wallet.network)} />
      <DetailRow title={T.token} value={wallet.token} />
      <DetailRow title={T.minimumForwardingAmount} value={wallet.minimumForwardingAmount} />
      <DetailRow title={T.destinationPublicAddress} value={wallet.destinationPublicAddress} link={link} copyable />
      <DetailRow title={T.gasFeeFundingWalletId} value={wallet.gasFeeFundingWalletId} copyable />
      <DetailRow title={T.webhookUrl} value={wallet.webhookSetting?.url} />
      <DetailRow title={T.webhookHeader} value={wallet.webhookSetting?.header} />
      <DetailRow title={T.webhookHeaderValue} value={wallet.webhookSetting?.headerValue} />
      <DetailRow title={T.balanceLastCheckedAt} value={dateText(wallet.balanceLastCheckedAt)} />
    </>
  );
}

function GasFeeRows({ wallet }: { wallet: GasFeeFundingWallet }) {
  return (
    <>
      <DetailRow title={T.id} value={wallet.id} copyable />
      <DetailRow title={T.name} value={wallet.name} />
      <DetailRow
        title={T.address}
        value={wallet.publicAddress}
        link={{ network: wallet.network, kind: 'address' }}
        copyable
      />
      <DetailRow title={T.network} value={networkText(wallet.network)} />
      <DetailRow title={T.token} value={wallet.token} />
      <DetailRow title={T.balance} value={wallet.balance} />
      <DetailRow title={T.balanceLastCheckedAt} value={dateText(wallet.updatedAt)} />
    </>
  );
}

function DestinationRows({ wallet }: { wallet: DestinationWallet }) {
  return (
    <>
      <DetailRow title={T.name} value={wallet.name} />
      <DetailRow
        title={T.destinationPublicAddress}
        value={wallet.destinationPublicAddress}
        link={{ network: wallet.network, kind: 'address' }}
        copyable
      />
      <DetailRow title={T.network} value={networkText(wallet.network)} />
    </>
  );
}

function rows(opened: OpenedWallet): ReactNode {
  if (!opened.wallet) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={T.walletGone} />;
  switch (opened.kind) {
    case 'forwarding':
      return <ForwardingRows wallet={opened.wallet} />;
    case 'gasFee':
      return <GasFeeRows wallet={opened.wallet} />;
    case 'destination':
      return <DestinationRows wallet={opened.wallet} />;
  }
}

/** The buttons each kind offers (spec B §2); Enable and Disable follow the forwarding wallet's status. */
function actions(opened: OpenedWallet): { action: WalletAction; label: string; danger?: boolean }[] {
  const remove = { action: 'delete', label: T.deleteWallet, danger: true } as const;
  const rename = { action: 'rename', label: T.updateName } as const;
  switch (opened.kind) {
    case 'destination':
      return [rename, remove];
    case 'gasFee':
      return [rename, { action: 'refreshBalance', label: T.refreshBalance }, remove];
    case 'forwarding': {
      const status = opened.wallet?.status;
      return [
        { action: 'viewTransactions', label: T.viewTransactions },
        ...(status !== 'ENABLED' ? [{ action: 'enable', label: T.enableWallet } as const] : []),
        ...(status !== 'DISABLED' ? [{ action: 'disable', label: T.disableWallet } as const] : []),
        remove,
      ];
    }
  }
}

/** Wallet Details (spec B §2): the rows of the wallet's kind and its actions. */
export function WalletDrawer({ opened, pending, onAction, onClose }: WalletDrawerProps) {
  return (
    <Drawer
      open
      title={T.walletDetails}
      onClose={onClose}
      width="min(520px, 100vw)"
      footer={
        <Space wrap>
          {actions(opened).map(({ action, label, danger }) => (
            <Button key={action} danger={danger} disabled={pending} onClick={() => onAction(action)}>
              {label}
            </Button>
          ))}
        </Space>
      }
    >
      {rows(opened)}
    </Drawer>
  );
}
