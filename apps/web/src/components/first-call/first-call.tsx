import { RPC_NETWORKS, type RpcNetwork, rpcEndpoint, rpcUrl } from '@ebs/contract';
import { Flex, Form, Input, Select, Space, Tabs, Typography } from 'antd';
import { useId, useState } from 'react';
import { CopyButton } from '../copy-button';
import { AddToWallet } from './add-to-wallet';
import { callSnippets } from './call-snippets';
import './first-call.css';
import { FirstCallTexts as T } from './first-call-texts';
import { RequestRunner } from './request-runner';

interface FirstCallProps {
  apiBase: string;
  keyId: string;
  apiKey: string;
}

/** A read-only URL with its copy button, labelled. */
function UrlField({ label, url, copyLabel }: { label: string; url: string; copyLabel: string }) {
  const id = useId();
  return (
    <Form.Item label={label} htmlFor={id}>
      <Space.Compact style={{ width: '100%' }}>
        <Input id={id} value={url} readOnly spellCheck={false} />
        <CopyButton text={url} label={copyLabel} />
      </Space.Compact>
    </Form.Item>
  );
}

/**
 * A first call with one key: a network picker, the network's URL (key in headers, and in the URL),
 * curl and viem, ethers and web3.py snippets with copy buttons, Add to MetaMask where a wallet is
 * present, and a request runner that calls the gateway with the key.
 */
export function FirstCall({ apiBase, keyId, apiKey }: FirstCallProps) {
  const [network, setNetwork] = useState<RpcNetwork>(RPC_NETWORKS[0]);
  const url = rpcEndpoint(apiBase, network.path);
  const withKey = rpcUrl(apiBase, network.path, keyId, apiKey);
  const networkId = useId();

  return (
    <Form layout="vertical" component="div" className="first-call">
      <Form.Item label={T.network} htmlFor={networkId}>
        <Flex gap="small" wrap align="center">
          <Select
            id={networkId}
            value={network.path}
            style={{ width: 260, maxWidth: '100%' }}
            options={RPC_NETWORKS.map((n) => ({ value: n.path, label: n.name }))}
            onChange={(path) => setNetwork(RPC_NETWORKS.find((n) => n.path === path) ?? RPC_NETWORKS[0])}
          />
          <AddToWallet network={network} urlWithKey={withKey} />
        </Flex>
      </Form.Item>
      <UrlField label={T.endpoint} url={url} copyLabel={T.copyEndpoint} />
      <UrlField label={T.endpointWithKey} url={withKey} copyLabel={T.copyEndpointWithKey} />
      <Typography.Text strong>{T.snippets}</Typography.Text>
      <Tabs
        size="small"
        items={callSnippets({ url, network, keyId, key: apiKey }).map((snippet) => ({
          key: snippet.id,
          label: snippet.label,
          children: (
            <section className="call-snippet" aria-label={snippet.label}>
              <CopyButton text={snippet.code} label={T.copySnippet(snippet.label)} size="small" />
              <pre>{snippet.code}</pre>
            </section>
          ),
        }))}
      />
      {/* Sent from this page's own origin, which serves the gateway too (the page's connect-src). */}
      <RequestRunner url={rpcEndpoint(window.location.origin, network.path)} keyId={keyId} apiKey={apiKey} />
    </Form>
  );
}
