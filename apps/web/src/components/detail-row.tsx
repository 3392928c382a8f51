import { Collapse, Typography } from 'antd';
import type { ReactNode } from 'react';
import { type ExplorerLinkKind, explorerLink } from '../lib/explorer-links';
import { Texts } from '../lib/texts';
import { CopyButton } from './copy-button';

/** spec A §9: a value longer than this collapses under a View panel. */
const DETAIL_VALUE_COLLAPSE_LENGTH = 160;

export interface DetailRowProps {
  title: string;
  /** Absent (undefined, null or '') renders nothing; a number shows as written, 0 included. */
  value: string | number | null | undefined;
  /** Links the value to its block explorer page on `network`, when that network has an explorer. */
  link?: { network: string; kind: ExplorerLinkKind };
  /** How the value is shown when it is not plain text (e.g. a signed, coloured amount). */
  display?: ReactNode;
  /** A long id, address or hash: a copy button beside it, named after the title, even when it is short. */
  copyable?: boolean;
}

/** A title over a value, as the detail drawers show them (spec A §2, spec B §2). */
export function DetailRow({ title, value, link, display, copyable = false }: DetailRowProps) {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  const href = link && explorerLink(link.network, link.kind, text);
  const shown =
    display ??
    (href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    ) : (
      text
    ));
  return (
    <div className="detail-row">
      <Typography.Text type="secondary">{title}</Typography.Text>
      <div className="detail-row-value">
        {text.length > DETAIL_VALUE_COLLAPSE_LENGTH ? (
          <Collapse
            size="small"
            items={[
              {
                key: 'value',
                label: Texts.view,
                children: (
                  <>
                    <CopyButton text={text} size="small" />
                    <pre className="detail-row-scroll">{shown}</pre>
                  </>
                ),
              },
            ]}
          />
        ) : copyable ? (
          <span className="detail-row-copyable">
            {shown}
            <CopyButton text={text} size="small" label={Texts.copyOf(title)} />
          </span>
        ) : (
          shown
        )}
      </div>
    </div>
  );
}
