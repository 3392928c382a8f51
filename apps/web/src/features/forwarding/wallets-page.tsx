import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { ForwardingMessages, type TokenForwardingWallet } from '@ebs/contract';
import { useIsFetching } from '@tanstack/react-query';
import { Button, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { lazyDialog } from '../../components/lazy-dialog';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { type NamedWallet, type SelectedWallet, useEnableWallet, useRefreshBalance } from './forwarding-mutations';
import {
  forwardingKeys,
  useDestinations,
  useForwardingWallets,
  useGasFeeWallets,
  useRefreshLists,
} from './forwarding-queries';
import { ForwardingTexts as T } from './forwarding-texts';
import { type CreateWalletState, readWalletListState, type TransactionsState } from './navigation-state';
import type { OpenedWallet, WalletAction } from './wallet-drawer';
import { DestinationWalletTable, ForwardingWalletTable, GasFeeWalletTable } from './wallet-tables';
import './forwarding.css';

// Opened on demand: their Drawer, Modal and Form load on first open, not with the page.
const WalletDrawer = lazyDialog(() => import('./wallet-drawer').then((m) => m.WalletDrawer));
const UpdateNameModal = lazyDialog(() => import('./wallet-dialogs').then((m) => m.UpdateNameModal));
const DisableWalletModal = lazyDialog(() => import('./wallet-dialogs').then((m) => m.DisableWalletModal));
const DeleteWalletModal = lazyDialog(() => import('./wallet-dialogs').then((m) => m.DeleteWalletModal));

type Dialog =
  | { kind: 'rename'; named: NamedWallet }
  | { kind: 'delete'; selected: SelectedWallet }
  | { kind: 'disable'; wallet: TokenForwardingWallet };

/** Which wallet's details are open: looked up in the lists, so a refresh shows its new values. */
type Opened = { kind: OpenedWallet['kind']; id: string };

const selectedOf = (opened: OpenedWallet | null): SelectedWallet | undefined =>
  opened?.wallet ? (opened as SelectedWallet) : undefined;

/**
 * /account/:accountId/services/token-forwarding/wallets (spec B §2, §4): the three kinds of wallets
 * in tabs, each row opening its details and actions; Create Wallet hands the loaded lists over, and
 * the list opens again on the tab of the wallet it made.
 */
export function WalletsPage() {
  const accountId = useParams().accountId ?? '';
  const navigate = useNavigate();
  // Back from creating a wallet: the tab of the wallet just made.
  const openOn = readWalletListState(useLocation().state);
  const wallets = useForwardingWallets(accountId);
  const gasFeeWallets = useGasFeeWallets(accountId);
  const destinations = useDestinations(accountId);
  const refreshLists = useRefreshLists(accountId);
  const fetching = useIsFetching({ queryKey: forwardingKeys.lists(accountId) }) > 0;
  const refreshBalance = useRefreshBalance(accountId);
  const enable = useEnableWallet(accountId);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const listError = wallets.error ?? gasFeeWallets.error ?? destinations.error;
  useEffect(() => {
    if (listError) toast.error(listError);
  }, [listError]);

  const openedWallet: OpenedWallet | null = !opened
    ? null
    : opened.kind === 'forwarding'
      ? { kind: 'forwarding', wallet: wallets.data?.find((w) => w.id === opened.id) }
      : opened.kind === 'gasFee'
        ? { kind: 'gasFee', wallet: gasFeeWallets.data?.find((w) => w.id === opened.id) }
        : { kind: 'destination', wallet: destinations.data?.find((w) => w.id === opened.id) };

  const closeAll = () => {
    setDialog(null);
    setOpened(null);
  };
  const showError = (error: unknown) => toast.error(error);

  const onAction = (action: WalletAction) => {
    const selected = selectedOf(openedWallet);
    if (!selected) {
      toast.error(ForwardingMessages.selectWallet);
      return;
    }
    if (action === 'delete') setDialog({ kind: 'delete', selected });
    else if (action === 'rename' && selected.kind !== 'forwarding') setDialog({ kind: 'rename', named: selected });
    // The drawer stays open: the refreshed list gives it the new balance and check time.
    else if (action === 'refreshBalance' && selected.kind === 'gasFee')
      refreshBalance.mutate(selected.wallet, { onError: showError });
    else if (action === 'enable' && selected.kind === 'forwarding')
      enable.mutate(selected.wallet, { onSuccess: closeAll, onError: showError });
    else if (action === 'disable' && selected.kind === 'forwarding')
      setDialog({ kind: 'disable', wallet: selected.wallet });
    else if (action === 'viewTransactions' && selected.kind === 'forwarding') {
      const state: TransactionsState = { walletId: selected.wallet.id };
      void navigate(accountPath(accountId, 'transactions'), { state });
    }
  };

  const createWallet = () => {
    const state: Partial<CreateWalletState> = {
      gasFeeFundingWallets: gasFeeWallets.data,
      destinationWallets: destinations.data,
    };
    void navigate(accountPath(accountId, 'createWallet'), { state });
  };

  const toolbar = (
    <div className="forwarding-toolbar">
      <Button icon={<ReloadOutlined />} disabled={fetching} onClick={() => void refreshLists()}>
        {T.refresh}
      </Button>
    </div>
  );

  const tabs = [
    {
      key: 'tokenForwardingWallets',
      label: T.tabs.tokenForwardingWallets,
      children: (
        <>
          {toolbar}
          <ForwardingWalletTable
            wallets={wallets.data}
            loading={wallets.isLoading}
            failure={{ error: wallets.error, onRetry: () => void wallets.refetch(), retrying: fetching }}
            onOpen={(wallet) => setOpened({ kind: 'forwarding', id: wallet.id })}
          />
        </>
      ),
    },
    {
      key: 'gasFeeFundingWallets',
      label: T.tabs.gasFeeFundingWallets,
      children: (
        <>
          {toolbar}
          <GasFeeWalletTable
            wallets={gasFeeWallets.data}
            loading={gasFeeWallets.isLoading}
            failure={{ error: gasFeeWallets.error, onRetry: () => void gasFeeWallets.refetch(), retrying: fetching }}
            onOpen={(wallet) => setOpened({ kind: 'gasFee', id: wallet.id })}
          />
        </>
      ),
    },
    {
      key: 'destinationWallets',
      label: T.tabs.destinationWallets,
      children: (
        <>
          {toolbar}
          <DestinationWalletTable
            wallets={destinations.data}
            loading={destinations.isLoading}
            failure={{ error: destinations.error, onRetry: () => void destinations.refetch(), retrying: fetching }}
            onOpen={(wallet) => setOpened({ kind: 'destination', id: wallet.id })}
          />
        </>
      ),
    },
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.wallets}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={createWallet}>
          {T.createWallet}
        </Button>
      </div>
      <Tabs className="forwarding-tabs" defaultActiveKey={openOn} items={tabs} />
      {openedWallet && (
        <WalletDrawer
          opened={openedWallet}
          pending={refreshBalance.isPending || enable.isPending}
          onAction={onAction}
          onClose={() => setOpened(null)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <UpdateNameModal accountId={accountId} named={dialog.named} onDone={closeAll} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'disable' && (
        <DisableWalletModal
          accountId={accountId}
          wallet={dialog.wallet}
          onDone={closeAll}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteWalletModal
          accountId={accountId}
          selected={dialog.selected}
          onDone={closeAll}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}
