import type { DestinationWallet, GasFeeFundingWallet } from '@ebs/contract';
import { Select } from 'antd';
import { ForwardingTexts as T } from './forwarding-texts';

/** The value of a select's create entry: no address or wallet id can look like it. */
const CREATE = '__create__';

interface WalletSelectProps {
  /** antd's Form.Item hands these in. */
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  network: string | undefined;
  /** The create entry was chosen: the form starts over as that kind of wallet. */
  onCreate: () => void;
}

interface Option {
  value: string;
  label: string;
}

function WalletSelect({
  id,
  value,
  onChange,
  network,
  onCreate,
  options,
  createLabel,
  loading,
}: WalletSelectProps & { options: Option[]; createLabel: string; loading: boolean }) {
  return (
    <Select
      id={id}
      value={value}
      disabled={!network}
      loading={loading}
      placeholder={network ? undefined : T.selectNetworkFirst}
      options={[...options, { value: CREATE, label: createLabel }]}
      onChange={(chosen: string) => {
        if (chosen === CREATE) onCreate();
        else onChange?.(chosen);
      }}
    />
  );
}

/** spec B §2: a forwarding wallet sends to one of the account's destination wallets on its network. */
export function DestinationSelect({
  destinations,
  ...props
}: WalletSelectProps & { destinations: DestinationWallet[] | undefined }) {
  const options = (destinations ?? [])
    .filter((wallet) => wallet.network === props.network)
    .map((wallet) => ({
      value: wallet.destinationPublicAddress,
      label: `${wallet.name} (${wallet.destinationPublicAddress})`,
    }));
  return (
    <WalletSelect
      {...props}
      options={options}
      createLabel={T.createDestinationEntry}
      loading={destinations === undefined}
    />
  );
}

/** spec B §2: an ERC20 forwarding wallet's gas is paid by a gas fee funding wallet on its network. */
export function GasFeeWalletSelect({
  wallets,
  ...props
}: WalletSelectProps & { wallets: GasFeeFundingWallet[] | undefined }) {
  const options = (wallets ?? [])
    .filter((wallet) => wallet.network === props.network)
    .map((wallet) => ({ value: wallet.id, label: `${wallet.name} (${wallet.balance} ${wallet.token})` }));
  return (
    <WalletSelect {...props} options={options} createLabel={T.createGasFeeEntry} loading={wallets === undefined} />
  );
}
