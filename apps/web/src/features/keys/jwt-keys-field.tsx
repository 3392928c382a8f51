import { DeleteOutlined } from '@ant-design/icons';
import { JWT_PEM_MAX_LENGTH, JWT_PUBLIC_KEYS_MAX, KeyRuleMessages } from '@ebs/contract';
import { Button, Flex, Input, List, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { formatDate } from '../../lib/format';
import { KeySecurityTexts as T } from './key-security-texts';
import { type JwtKeysDraft, publicKeyCount } from './key-settings-changes';

interface JwtKeysFieldProps {
  id?: string;
  value?: JwtKeysDraft;
  onChange?: (draft: JwtKeysDraft) => void;
}

const NONE: JwtKeysDraft = { kept: [], added: [] };

const PUBLIC_PEM = /^-----BEGIN (RSA )?PUBLIC KEY-----[A-Za-z0-9+/=\s]+-----END (RSA )?PUBLIC KEY-----$/;

/**
 * What is wrong with a pasted key, in the contract's words, or undefined. Only its shape is
 * checked here: the server reads the key itself (its type and size) and names what it refuses.
 */
function pemProblem(pem: string, n: number): string | undefined {
  if (pem.includes('PRIVATE KEY')) return KeyRuleMessages.pemPrivate(n);
  if (!PUBLIC_PEM.test(pem)) return KeyRuleMessages.pemInvalid(n);
  return undefined;
}

/** The public keys JWTs are signed with: the saved ones (their id is the JWT's kid), pasted ones, and the paste box. */
export function JwtKeysField({ id, value = NONE, onChange }: JwtKeysFieldProps) {
  const [pem, setPem] = useState('');
  const [error, setError] = useState<string>();
  const full = publicKeyCount(value) >= JWT_PUBLIC_KEYS_MAX;

  const add = () => {
    const text = pem.trim();
    const problem = pemProblem(text, value.added.length + 1);
    setError(problem);
    if (problem) return;
    onChange?.({ ...value, added: [...value.added, text] });
    setPem('');
  };

  const rows = [
    ...value.kept.map((key) => ({
      key: key.id,
      title: (
        <Flex wrap gap="small" align="center">
          <Typography.Text code>{key.id}</Typography.Text>
          <CopyButton text={key.id} size="small" label={T.copyKeyId} />
          <Tag>{key.algorithm}</Tag>
        </Flex>
      ),
      description: T.addedOn(formatDate(key.createdAt)),
      removeLabel: T.removePublicKey(key.id),
      remove: () => onChange?.({ ...value, kept: value.kept.filter((kept) => kept.id !== key.id) }),
    })),
    ...value.added.map((_pem, i) => ({
      key: `added-${i}`,
      title: T.newPublicKey(i + 1),
      description: undefined,
      removeLabel: T.removeNewPublicKey(i + 1),
      remove: () => onChange?.({ ...value, added: value.added.filter((_, j) => j !== i) }),
    })),
  ];

  return (
    <Flex id={id} vertical gap="small">
      {rows.length === 0 ? (
        <Typography.Text type="secondary">{T.noPublicKeys}</Typography.Text>
      ) : (
        <List
          size="small"
          bordered
          dataSource={rows}
          renderItem={(row) => (
            <List.Item
              actions={[
                <Button
                  key="remove"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={row.removeLabel}
                  onClick={row.remove}
                />,
              ]}
            >
              <List.Item.Meta title={row.title} description={row.description} />
            </List.Item>
          )}
        />
      )}
      {value.kept.length > 0 && <Typography.Text type="secondary">{T.keyIdHint}</Typography.Text>}
      {full ? (
        <Typography.Text type="secondary">{T.publicKeysFull(JWT_PUBLIC_KEYS_MAX)}</Typography.Text>
      ) : (
        <>
          <Input.TextArea
            aria-label={T.publicKeyPem}
            placeholder={T.pemPlaceholder}
            rows={4}
            maxLength={JWT_PEM_MAX_LENGTH}
            value={pem}
            status={error ? 'error' : undefined}
            onChange={(event) => {
              setPem(event.target.value);
              setError(undefined);
            }}
          />
          {error && <Typography.Text type="danger">{error}</Typography.Text>}
          <div>
            <Button onClick={add} disabled={pem.trim() === ''}>
              {T.addPublicKey}
            </Button>
          </div>
        </>
      )}
    </Flex>
  );
}
