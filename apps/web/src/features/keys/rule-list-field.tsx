import { CloseOutlined } from '@ant-design/icons';
import { type KeyRuleList, KNOWN_RPC_METHODS, parseKeyRuleList } from '@ebs/contract';
import { Button, Flex, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { KeySecurityTexts as T } from './key-security-texts';

interface EntriesProps {
  list: KeyRuleList;
  inputId: string;
  anyText: string;
  placeholder: string;
  addLabel: string;
  /** A refused entry's message, or undefined once the entry is accepted or edited. */
  onRefused: (message: string | undefined) => void;
  value?: string[];
  onChange?: (entries: string[]) => void;
}

/** The list with its entries written as stored, or `entries` refused with the contract's message. */
function accept(props: EntriesProps, value: string[], entries: string[]) {
  const parsed = parseKeyRuleList(props.list, [...value, ...entries]);
  props.onRefused(parsed.ok ? undefined : parsed.message);
  if (parsed.ok) props.onChange?.(parsed.values);
  return parsed.ok;
}

/** Entries typed into a box, several at once when separated by spaces or commas; each shown as a tag. */
function TypedEntries(props: EntriesProps) {
  const { inputId, anyText, placeholder, addLabel, onRefused, value = [], onChange } = props;
  const [draft, setDraft] = useState('');
  const add = () => {
    const entries = draft.split(/[\s,]+/).filter(Boolean);
    if (entries.length > 0 && accept(props, value, entries)) setDraft('');
  };
  return (
    <Flex vertical gap="small">
      {value.length === 0 ? (
        <Typography.Text type="secondary">{anyText}</Typography.Text>
      ) : (
        <Flex wrap gap="small">
          {value.map((entry) => (
            <Tag key={entry} style={{ marginInlineEnd: 0 }}>
              {entry}
              <Button
                type="text"
                size="small"
                icon={<CloseOutlined />}
                aria-label={T.remove(entry)}
                onClick={() => onChange?.(value.filter((kept) => kept !== entry))}
              />
            </Tag>
          ))}
        </Flex>
      )}
      <Space.Compact block>
        <Input
          id={inputId}
          placeholder={placeholder}
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            onRefused(undefined);
          }}
          onPressEnter={(event) => {
            // Enter adds the entry; it must not submit the whole form.
            event.preventDefault();
            add();
          }}
        />
        <Button aria-label={addLabel} onClick={add}>
          {T.add}
        </Button>
      </Space.Compact>
    </Flex>
  );
}

const METHOD_OPTIONS = KNOWN_RPC_METHODS.map((method) => ({ value: method, label: method }));

/** Methods picked from the known ones or typed (Enter adds); the select shows them as tags. */
function PickedMethods(props: EntriesProps) {
  const { inputId, anyText, value = [] } = props;
  return (
    <Select
      id={inputId}
      mode="tags"
      placeholder={anyText}
      options={METHOD_OPTIONS}
      value={value}
      tokenSeparators={[',', ' ']}
      onChange={(next: string[]) => {
        const added = next.filter((entry) => !value.includes(entry));
        const kept = next.filter((entry) => value.includes(entry));
        accept(props, kept, added);
      }}
    />
  );
}

interface RuleListFieldProps {
  list: KeyRuleList;
  label: string;
  hint: string;
  anyText: string;
  /** For the typed lists: the box's example and the accessible name of its Add button. */
  placeholder?: string;
  addLabel?: string;
}

/**
 * One of a key's rule lists: its entries (or the text saying it allows any), a way to add one, the
 * hint under it, and the contract's message for an entry it refuses.
 */
export function RuleListField({ list, label, hint, anyText, placeholder = '', addLabel = T.add }: RuleListFieldProps) {
  const [error, setError] = useState<string>();
  const inputId = useId();
  const Entries = list === 'allowedMethods' ? PickedMethods : TypedEntries;
  return (
    <Form.Item label={label} htmlFor={inputId} extra={hint} help={error} validateStatus={error ? 'error' : undefined}>
      <Form.Item name={list} noStyle>
        <Entries
          list={list}
          inputId={inputId}
          anyText={anyText}
          placeholder={placeholder}
          addLabel={addLabel}
          onRefused={setError}
        />
      </Form.Item>
    </Form.Item>
  );
}
