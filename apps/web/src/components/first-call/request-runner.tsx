import { API_KEY_ID_PARAM, API_KEY_PARAM, KNOWN_RPC_METHODS } from '@ebs/contract';
import { AutoComplete, Button, Flex, Form, Input, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import { FirstCallTexts as T } from './first-call-texts';

/** Params that show each common method working; any other starts from []. */
const EXAMPLE_PARAMS: Record<string, string> = {
  eth_getBalance: '["0x0000000000000000000000000000000000000000", "latest"]',
  eth_getBlockByNumber: '["latest", false]',
  eth_getTransactionCount: '["0x0000000000000000000000000000000000000000", "latest"]',
  eth_getCode: '["0xcA11bde05977b3631167028862bE2a173976CA11", "latest"]',
};

/** The most of an answer the runner shows (the gateway bounds what it sends; this bounds the page). */
const SHOWN_BYTES = 64 * 1024;

type Outcome =
  | { kind: 'answer'; status: number; ms: string; text: string; cut: boolean }
  | { kind: 'failed'; reason: string }
  | { kind: 'refused'; reason: string };

function readParams(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text || '[]');
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An answer as indented JSON when it is JSON, else as it came. */
function shown(body: string): { text: string; cut: boolean } {
  let text = body;
  try {
    text = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // Not JSON (a proxy's page, say): shown as it came.
  }
  return text.length > SHOWN_BYTES ? { text: text.slice(0, SHOWN_BYTES), cut: true } : { text, cut: false };
}

interface RequestRunnerProps {
  /** The network's URL without the key; the key goes in headers. */
  url: string;
  keyId: string;
  apiKey: string;
}

/**
 * A small request runner: a method, its params, Send; the gateway's answer and the time it took, as
 * a developer's own client would see them (the call is metered and billed as any other).
 */
export function RequestRunner({ url, keyId, apiKey }: RequestRunnerProps) {
  const [method, setMethod] = useState('eth_blockNumber');
  const [params, setParams] = useState('[]');
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const nextId = useRef(1);
  const methodId = useId();
  const paramsId = useId();
  const ready = keyId.trim() !== '' && apiKey.trim() !== '';

  const send = async () => {
    const parsed = readParams(params);
    if (!parsed) {
      setOutcome({ kind: 'refused', reason: T.paramsInvalid });
      return;
    }
    setSending(true);
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        // The key goes in its headers only: no cookie, no referrer.
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        headers: {
          'content-type': 'application/json',
          [API_KEY_ID_PARAM]: keyId.trim(),
          [API_KEY_PARAM]: apiKey.trim(),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId.current++, method: method.trim(), params: parsed }),
      });
      const body = await response.text();
      const ms = (performance.now() - started).toFixed(0);
      setOutcome({ kind: 'answer', status: response.status, ms, ...shown(body) });
    } catch (error) {
      setOutcome({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
    } finally {
      setSending(false);
    }
  };

  const chooseMethod = (value: string) => {
    setMethod(value);
    setParams(EXAMPLE_PARAMS[value] ?? '[]');
  };

  return (
    <section className="request-runner" aria-label={T.tryIt}>
      <Typography.Text strong>{T.tryIt}</Typography.Text>
      <Flex gap="small" wrap align="end" style={{ marginTop: 8 }}>
        <Form.Item label={T.method} htmlFor={methodId} style={{ flex: '1 1 200px', marginBottom: 0 }}>
          <AutoComplete
            id={methodId}
            value={method}
            options={KNOWN_RPC_METHODS.filter((m) => m.includes(method)).map((m) => ({ value: m }))}
            onChange={setMethod}
            onSelect={chooseMethod}
          />
        </Form.Item>
        <Form.Item label={T.params} htmlFor={paramsId} style={{ flex: '2 1 280px', marginBottom: 0 }}>
          <Input id={paramsId} value={params} onChange={(event) => setParams(event.target.value)} spellCheck={false} />
        </Form.Item>
        <Button type="primary" loading={sending} disabled={!ready || !method.trim()} onClick={() => void send()}>
          {T.send}
        </Button>
      </Flex>
      {!ready && <Typography.Paragraph type="secondary">{T.needKey}</Typography.Paragraph>}
      {outcome?.kind === 'answer' && (
        <div className="request-runner-answer" role="status">
          <Typography.Text type="secondary">
            {T.answeredIn(outcome.status, outcome.ms)} {outcome.cut && T.cutAt(SHOWN_BYTES / 1024)}
          </Typography.Text>
          <Input.TextArea
            className="request-runner-text"
            aria-label={T.answer}
            value={outcome.text}
            readOnly
            spellCheck={false}
            autoSize={{ minRows: 3, maxRows: 16 }}
          />
        </div>
      )}
      {outcome && outcome.kind !== 'answer' && (
        <Typography.Paragraph type="danger" role="alert">
          {outcome.kind === 'failed' ? T.failedToSend(outcome.reason) : outcome.reason}
        </Typography.Paragraph>
      )}
    </section>
  );
}
