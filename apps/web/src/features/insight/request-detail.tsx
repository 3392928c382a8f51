import type { RequestLogEntry } from '@ebs/contract';
import { Descriptions, Tag } from 'antd';
import { networkName } from '../../lib/format';
import { InsightTexts as T } from './insight-texts';
import { requestKind } from './request-kind';

/** A request log row, opened: what the gateway answered, and the request's methods, size, key, origin and address. */
export function RequestDetail({ entry }: { entry: RequestLogEntry }) {
  const kind = requestKind(entry);
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      className="request-detail"
      items={[
        {
          key: 'answer',
          label: T.answer,
          children: (
            <>
              <Tag color={kind.color}>{kind.text}</Tag>
              <div>
                HTTP {entry.httpStatus}
                {entry.errorCode !== null && ` · ${entry.errorCode}`}
                {entry.errorMessage ? `: ${entry.errorMessage}` : ''}
              </div>
              {!entry.errorMessage && entry.errorCode !== null && <div>{T.noMessage}</div>}
            </>
          ),
        },
        { key: 'methods', label: T.methods, children: entry.methods.join(', ') || '-' },
        {
          key: 'size',
          label: T.requestSize,
          children: entry.requestChars === null ? '-' : T.chars(entry.requestChars),
        },
        { key: 'network', label: T.network, children: networkName(entry.network) },
        { key: 'key', label: T.apiKey, children: `${entry.apiKeyName || T.deletedKey} (${entry.apiKeyId})` },
        { key: 'origin', label: T.origin, children: entry.origin ?? '-' },
        { key: 'address', label: T.clientIp, children: entry.clientIp },
        { key: 'latency', label: T.latencyMs, children: T.ms(entry.latencyMs) },
      ]}
    />
  );
}
