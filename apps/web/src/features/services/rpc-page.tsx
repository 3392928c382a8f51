import { KeyOutlined, ReadOutlined } from '@ant-design/icons';
import { RPC_NETWORKS, rpcUrl } from '@ebs/contract';
import { Button, Card, Col, Flex, Form, Input, List, Row, Space, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { usePublicConfig } from '../../api/public-config';
import { accountPath } from '../../app/paths';
import { CopyButton } from '../../components/copy-button';
import { Texts } from '../../lib/texts';

const T = Texts.rpc;

/** One network: its name, POST, a copy button and the read-only URL. */
function EndpointRow({ name, url }: { name: string; url: string }) {
  const id = useId();
  return (
    <List.Item>
      <Flex gap="small" align="center" wrap style={{ width: '100%' }}>
        <label htmlFor={id} style={{ minWidth: 140 }}>
          {name}
        </label>
        <Tag color="blue">{T.post}</Tag>
        <CopyButton text={url} />
        {/* A text area, so a phone shows the whole URL over several lines instead of its start. */}
        <Input.TextArea
          id={id}
          aria-label={T.urlOf(name)}
          value={url}
          readOnly
          autoSize
          style={{ flex: '1 1 320px' }}
        />
      </Flex>
    </List.Item>
  );
}

/**
 * /account/:accountId/services/rpc (spec B §2): the endpoint of every network, built live from a key
 * the user types. The key lives only in this page's state: nothing stores it.
 */
export function RpcServicePage() {
  const accountId = useParams().accountId ?? '';
  const navigate = useNavigate();
  const config = usePublicConfig();
  const [keyId, setKeyId] = useState('');
  const [key, setKey] = useState('');
  const apiBase = config?.apiBase || window.location.origin;
  const docsUrl = config?.docsUrl;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.rpc}</Typography.Title>
        <Space wrap>
          <Button type="primary" icon={<KeyOutlined />} onClick={() => navigate(accountPath(accountId, 'apiKeys'))}>
            {T.createNewKey}
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
                  onChange={(event) => setKey(event.target.value)}
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
          renderItem={(network) => <EndpointRow name={network.name} url={rpcUrl(apiBase, network.path, keyId, key)} />}
        />
      </Card>
    </>
  );
}
