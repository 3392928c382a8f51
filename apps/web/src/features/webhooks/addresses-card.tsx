import { DeleteOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { tableLocale } from '../../components/load-state';
import { toast } from '../../lib/toast';
import { AddressesInput } from './addresses-input';
import { parseAddresses } from './parse-addresses';
import { Rules } from './webhook-form';
import { type Progress, useAddAddresses, useRemoveAddress } from './webhooks-mutations';
import { useWebhookAddresses } from './webhooks-queries';
import { WebhooksTexts as T } from './webhooks-texts';

interface AddressesCardProps {
  accountId: string;
  webhookId: string;
}

interface AddFields {
  addresses?: string;
}

const ADD_FORM = 'addAddresses';

/** Add addresses: a list as on the create form, sent 1000 a call; the box empties once they are all in. */
function AddAddressesForm({ accountId, webhookId }: AddressesCardProps) {
  const [form] = Form.useForm<AddFields>();
  const add = useAddAddresses(accountId, webhookId);
  const [sent, setSent] = useState<Progress | null>(null);

  const onFinish = ({ addresses }: AddFields) =>
    add.mutate(
      { addresses: parseAddresses(addresses ?? '').addresses, onProgress: setSent },
      {
        onSuccess: () => form.resetFields(),
        onError: (error) => toast.error(error),
        onSettled: () => setSent(null),
      },
    );

  return (
    <Form<AddFields>
      form={form}
      name={ADD_FORM}
      className="webhook-add"
      layout="vertical"
      requiredMark={false}
      disabled={add.isPending}
      onFinish={onFinish}
    >
      <Form.Item name="addresses" label={T.addressesToAdd} rules={[Rules.addresses]} extra={T.addressesHint}>
        <AddressesInput testId="webhook-add-addresses-input" />
      </Form.Item>
      <Button type="primary" htmlType="submit" aria-busy={add.isPending}>
        {T.addAddresses}
      </Button>
      {sent && sent.total > sent.sent && (
        <Typography.Text role="status" className="webhook-progress">
          {' '}
          {T.sendingAddresses(sent.sent, sent.total)}
        </Typography.Text>
      )}
    </Form>
  );
}

/**
 * The watched addresses, a page at a time in the server's order (each page from the last address of
 * the one before), searched by part of an address; each can be removed, and more added below.
 */
export function AddressesCard({ accountId, webhookId }: AddressesCardProps) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  // The cursor of each page after the first that has been opened: the last one is the page shown.
  const [cursors, setCursors] = useState<string[]>([]);
  const page = useWebhookAddresses(accountId, webhookId, { cursor: cursors.at(-1), search: search || undefined });
  const remove = useRemoveAddress(accountId, webhookId);
  const nextCursor = page.data?.nextCursor ?? null;

  const onSearch = (value: string) => {
    setSearch(value.trim().toLowerCase());
    setCursors([]);
  };

  const columns: TableProps<string>['columns'] = [
    {
      title: T.address,
      key: 'address',
      render: (_value, address) => <span className="webhook-address">{address}</span>,
    },
    {
      title: T.actions,
      key: 'actions',
      align: 'right',
      render: (_value, address) => (
        <Button
          size="small"
          icon={<DeleteOutlined aria-hidden="true" />}
          aria-label={T.removeAddress(address)}
          title={T.removeAddress(address)}
          disabled={remove.isPending && remove.variables === address}
          onClick={() => remove.mutate(address, { onError: (error) => toast.error(error) })}
        >
          {T.remove}
        </Button>
      ),
    },
  ];

  return (
    <Card title={T.addresses} className="webhook-card" data-testid="webhook-addresses">
      <div className="webhook-toolbar">
        <Input.Search
          className="webhook-search"
          aria-label={T.searchAddresses}
          placeholder={T.searchPlaceholder}
          maxLength={42}
          allowClear
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onSearch={onSearch}
        />
        {page.data && (
          <Typography.Text data-testid="webhook-address-total">
            {T.addressTotal(page.data.total, search !== '')}
          </Typography.Text>
        )}
      </div>
      <Table<string>
        rowKey={(address) => address}
        size="small"
        columns={columns}
        dataSource={page.data?.addresses}
        loading={page.isFetching}
        pagination={false}
        locale={tableLocale({
          loading: page.isLoading,
          hint: search ? T.noMatchingAddresses : T.noAddresses,
          failure: { error: page.error, onRetry: () => void page.refetch(), retrying: page.isFetching },
        })}
      />
      <div className="webhook-pager">
        <Button disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          {T.previous}
        </Button>
        <Typography.Text>{T.pageOf(cursors.length + 1)}</Typography.Text>
        <Button
          disabled={nextCursor === null || page.isPlaceholderData}
          onClick={() => nextCursor && setCursors([...cursors, nextCursor])}
        >
          {T.next}
        </Button>
      </div>
      <AddAddressesForm accountId={accountId} webhookId={webhookId} />
    </Card>
  );
}
