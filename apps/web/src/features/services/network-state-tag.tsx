import type { RpcNetworkState } from '@ebs/contract';
import { Tag, Tooltip } from 'antd';
import { StatusTexts as T } from './status-texts';

const COLORS: Record<RpcNetworkState, string> = { operational: 'green', degraded: 'gold', down: 'red' };

interface NetworkStateTagProps {
  state: RpcNetworkState;
  /** More about the state on hover and on focus (the tag can then be reached with Tab). */
  tooltip?: string;
}

/** A network's state: Operational (green), Degraded (gold) or Down (red). */
export function NetworkStateTag({ state, tooltip }: NetworkStateTagProps) {
  const tag = (
    <Tag color={COLORS[state]} tabIndex={tooltip === undefined ? undefined : 0}>
      {T.states[state]}
    </Tag>
  );
  if (tooltip === undefined) return tag;
  return (
    <Tooltip title={tooltip} trigger={['hover', 'focus']}>
      {tag}
    </Tooltip>
  );
}
