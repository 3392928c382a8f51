import { KeyOutlined, LineChartOutlined, ReadOutlined } from '@ant-design/icons';
import { RPC_NETWORKS, type RpcNetworkStatus, rpcUrl, rpcWebSocketUrl } from '@ebs/contract';
import { Button, Card, Col, Flex, Form, Input, List, Row, Select, Space, Tag, Typography } from 'antd';
import { type ReactNode, useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useApiKeys } from '../../api/keys-queries';
import { useApiBase, usePublicConfig } from '../../api/public-config';
import { CopyButton } from '../../components/copy-button';
import { FirstCall } from '../../components/first-call/first-call';
import { FirstCallTexts } from '../../components/first-call/first-call-texts';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { keySecret, rememberKeySecret } from '../../session/key-secrets';
import { NetworkStateTag } from './network-state-tag';
import { headText } from './network-status';
import { useNetworkStatus } from './status-queries';

const T = Texts.rpc;

interface EndpointProps {
  name: string;
  url: string;
  tag: string;
  /** The URL box's accessible name, and the copy button's. */
  urlLabel: string;
  copyLabel?: string;
  /** Shown after the name: the network's state. */
  status?: ReactNode;
}

/** A network's endpoint: its name, the method or scheme, a copy button and the read-only URL. */
function Endpoint({ name, url, tag, urlLabel, copyLabel, status }: EndpointProps) {
  const id = useId();
  return (
    <Flex gap="small" align="center" wrap style={{ width: '100%' }}>
      <label htmlFor={id} style={{ minWidth: 140 }}>
        {name}
      </label>
      {/* One width for every state, so that the URL boxes line up and nothing moves when the states arrive. */}
      {status !== undefined && <span style={{ minWidth: 88 }}>{status}</span>}
      <Tag color="blue">{tag}</Tag>
      <CopyButton text={url} label={copyLabel} />
      {/* A text area, so a phone shows the whole URL over several lines instead of its start. */}
      <Input.TextArea id={id} aria-label={urlLabel} value={url} readOnly autoSize style={{ flex: '1 1 320px' }} />
    </Flex>
  );
}

/** A network's state, with its head and how long ago it was seen on hover; nothing until it is known. */
function NetworkState({ status }: { status: RpcNetworkStatus | undefined }) {
  return status ? <NetworkStateTag state={status.status} tooltip={headText(status)} /> : null;
}

/**
 * /account/:accountId/services/rpc (spec B §2): the endpoint of every network, built live from a key
 * the user types, or picks by name from the account's keys, each with its state beside it (the
 * endpoints show as well without it, while it loads or when it cannot be read). A secret lives only
 * in this tab's memory (session/key-secrets.ts): nothing stores it. Under the endpoints, a first
 * call with that key: snippets, a request runner and Add to MetaMask.
 */
export function RpcServicePage() {
  const accountId = useParams().accountId ?? '';
  const navigate = useNavigate();
  const config = usePublicConfig();
  const [keyId, setKeyId] = useState('');
  const [key, setKey] = useState('');
  const apiBase = useApiBase();
  const docsUrl = config?.docsUrl;
  const keys = useApiKeys(accountId);
  const statuses = useNetworkStatus().data?.networks;
  const chosen = keys.data?.apiKeys.some((k) => k.id === keyId.trim()) ? keyId.trim() : undefined;
  const keyPickerId = useId();

  const chooseKey = (id: string) => {
    setKeyId(id);
    setKey(keySecret(id) ?? '');
  };
  const typeKey = (value: string) => {
    setKey(value);
    if (keyId.trim()) rememberKeySecret(keyId.trim(), value.trim());
  };

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.rpc}</Typography.Title>
        <Space wrap>
          <Button
            type="primary"
            icon={<KeyOutlined />}
            onClick={() => navigate(accountPath(accountId, 'apiKeys'), { state: { create: true } })}
          >
            {T.createNewKey}
          </Button>
          <Button icon={<LineChartOutlined />} onClick={() => navigate(accountPath(accountId, 'analytics'))}>
            {T.analytics}
          </Button>
          <Button
            icon={<ReadOutlined />}
            disabled={!docsUrl}
            onClick={() => window.open(docsUrl, '_blank', 'noopener,noreferrer')}
          >
            {T.documentation}
          </Button>
        </Space>
      </div>
      <Card>
        <Form layout="vertical" autoComplete="off">
          <Form.Item
            label={FirstCallTexts.chooseKey}
            htmlFor={keyPickerId}
            extra={chosen && !key.trim() ? FirstCallTexts.keyMissing : undefined}
          >
            <Select
              id={keyPickerId}
              value={chosen}
              placeholder={FirstCallTexts.chooseKeyPlaceholder}
              loading={keys.isLoading}
              style={{ maxWidth: 420 }}
              options={keys.data?.apiKeys.map((k) => ({
                value: k.id,
                label: k.status === 'ACTIVE' ? k.name : `${k.name} (${k.status})`,
              }))}
              onChange={chooseKey}
            />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item label={T.apiKeyId} htmlFor="rpc-api-key-id">
                <Input
                  id="rpc-api-key-id"
                  placeholder={T.apiKeyIdPlaceholder}
                  value={keyId}
                  onChange={(event) => setKeyId(event.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={T.apiKey} htmlFor="rpc-api-key">
                <Input
                  id="rpc-api-key"
                  placeholder={T.apiKeyPlaceholder}
                  value={key}
                  onChange={(event) => typeKey(event.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                />
              </Form.Item>
            </Col>
          </Row>
        </Form>
        <List
          dataSource={[...RPC_NETWORKS]}
          rowKey="path"
          renderItem={(network) => (
            <List.Item>
              <Endpoint
                name={network.name}
                url={rpcUrl(apiBase, network.path, keyId, key)}
                tag={T.post}
                urlLabel={T.urlOf(network.name)}
                status={<NetworkState status={statuses?.find((status) => status.network === network.path)} />}
              />
            </List.Item>
          )}
        />
      </Card>
      <Card title={FirstCallTexts.makeACall} style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary">{FirstCallTexts.makeACallIntro}</Typography.Paragraph>
        <FirstCall apiBase={apiBase} keyId={keyId} apiKey={key} />
      </Card>
      {/* Under the HTTP endpoints (spec B §2's rows stay as they are): the same key over WebSocket. */}
      <Card title={T.webSocketTitle} style={{ marginTop: 16 }}>
        <Typography.Paragraph type="secondary">{T.webSocketIntro}</Typography.Paragraph>
        <Flex vertical gap="middle">
          {RPC_NETWORKS.map((network) => (
            <Endpoint
              key={network.path}
              name={network.name}
              url={rpcWebSocketUrl(apiBase, network.path, keyId, key)}
              tag={T.ws}
              urlLabel={T.webSocketUrlOf(network.name)}
              copyLabel={T.copyWebSocketUrl}
            />
          ))}
        </Flex>
      </Card>
    </>
  );
}
