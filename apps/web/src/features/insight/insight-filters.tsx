import { RPC_NETWORKS } from '@ebs/contract';
import { Select } from 'antd';
import { useApiKeys } from '../../api/keys-queries';
import { InsightTexts as T } from './insight-texts';

interface FilterProps {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** All keys, or one of the account's keys. */
export function KeyFilter({ accountId, value, onChange }: FilterProps & { accountId: string }) {
  const keys = useApiKeys(accountId);
  return (
    <Select
      className="insight-filter"
      aria-label={T.key}
      value={value ?? ''}
      loading={keys.isLoading}
      onChange={(next: string) => onChange(next || undefined)}
      options={[
        { value: '', label: T.allKeys },
        ...(keys.data?.apiKeys ?? []).map((key) => ({ value: key.apiKeyId, label: key.apiKeyName })),
      ]}
    />
  );
}

/** All networks, or one. */
export function NetworkFilter({ value, onChange }: FilterProps) {
  return (
    <Select
      className="insight-filter"
      aria-label={T.network}
      value={value ?? ''}
      onChange={(next: string) => onChange(next || undefined)}
      options={[
        { value: '', label: T.allNetworks },
        ...RPC_NETWORKS.map((network) => ({ value: network.path, label: network.name })),
      ]}
    />
  );
}
