import {
  displayNetworkName,
  ForwardingMessages,
  MINIMUM_FORWARDING_AMOUNT,
  type SmartContractInfo,
  type TestWebhookResult,
  WALLET_NAME_MAX,
  WEBHOOK_HEADER_MAX,
  WEBHOOK_HEADER_VALUE_MAX,
  WEBHOOK_URL_MAX,
} from '@ebs/contract';
import { Button, Card, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import {
  type CreateWalletFields,
  createRequest,
  DEFAULT_WALLET_TYPE,
  Required,
  visibleFields,
  type WalletType,
  webhookOf,
} from './create-wallet-form';
import { SmartContractModal, WebhookResponseModal } from './create-wallet-modals';
import { useCreateWallet, useSmartContractInfo, useTestWebhook } from './forwarding-mutations';
import { useDestinations, useGasFeeWallets, useSupportedNetworks } from './forwarding-queries';
import { ForwardingTexts as T } from './forwarding-texts';
import { readCreateWalletState, type WalletListState, type WalletTab } from './navigation-state';
import { DestinationSelect, GasFeeWalletSelect } from './wallet-selects';
import './forwarding.css';

const FORM = 'createWallet';
/** antd names a field's input `${form}_${field}`: the labels of the fields with a button beside them point there. */
const fieldId = (name: keyof CreateWalletFields) => `${FORM}_${name}`;

/** The wallet list's tab that lists each kind of wallet. */
const TAB_OF: Record<WalletType, WalletTab> = {
  tokenForwardingWallet: 'tokenForwardingWallets',
  gasFeeFundingWallet: 'gasFeeFundingWallets',
  destinationWallet: 'destinationWallets',
};

const walletTypeOptions = (Object.keys(T.walletTypes) as WalletType[]).map((value) => ({
  value,
  label: T.walletTypes[value],
}));

type Shown =
  | { kind: 'contract'; info: SmartContractInfo; network: string }
  | { kind: 'webhook'; result: TestWebhookResult };

/**
 * /account/:accountId/services/token-forwarding/wallets/create (spec B §2, §4, §5): one form for the
 * three kinds of wallet; the fields follow the wallet type and, for a forwarding wallet, its token.
 */
export function CreateWalletPage() {
  const accountId = useParams().accountId ?? '';
  const navigate = useNavigate();
  const handedOver = readCreateWalletState(useLocation().state);
  const [form] = Form.useForm<CreateWalletFields>();
  const networks = useSupportedNetworks(accountId);
  // Opened from the wallet list, the page has the lists already; opened directly, it fetches them.
  const gasFeeQuery = useGasFeeWallets(accountId, !handedOver.gasFeeFundingWallets);
  const destinationQuery = useDestinations(accountId, !handedOver.destinationWallets);
  const gasFeeWallets = handedOver.gasFeeFundingWallets ?? gasFeeQuery.data;
  const destinations = handedOver.destinationWallets ?? destinationQuery.data;
  const create = useCreateWallet(accountId);
  const contractInfo = useSmartContractInfo(accountId);
  const testWebhook = useTestWebhook(accountId);
  const [shown, setShown] = useState<Shown | null>(null);

  const walletType = Form.useWatch('walletType', form) ?? DEFAULT_WALLET_TYPE;
  const network = Form.useWatch('network', form);
  const token = Form.useWatch('token', form);
  const smartContractAddress = Form.useWatch('smartContractAddress', form);
  const webhookUrl = Form.useWatch('webhookUrl', form);
  const visible = visibleFields(walletType, token);
  const forwarding = walletType === 'tokenForwardingWallet';

  const loadError = networks.error ?? gasFeeQuery.error ?? destinationQuery.error;
  useEffect(() => {
    if (loadError) toast.error(loadError);
  }, [loadError]);

  const toWalletList = () => void navigate(accountPath(accountId, 'wallets'));
  // A wallet made here: the list opens on the tab of its kind, where it now is.
  const toCreatedWallet = () => {
    const state: WalletListState = { tab: TAB_OF[walletType] };
    void navigate(accountPath(accountId, 'wallets'), { state });
  };

  // spec B §4: a new network clears the token (and the wallets picked on the old network).
  const onNetworkChange = () =>
    form.setFieldsValue({
      token: undefined,
      gasFeeFundingWalletId: undefined,
      ...(forwarding && { destinationPublicAddress: undefined }),
    });

  // spec B §2: the create entries of the wallet selects start over as the other kind of wallet. The
  // network stays: the missing wallet is needed on it.
  const switchTo = (type: WalletType) => {
    const kept = form.getFieldValue('network') as string | undefined;
    form.resetFields();
    form.setFieldsValue({ walletType: type, network: kept });
  };

  const verify = async () => {
    try {
      await form.validateFields(['network', 'smartContractAddress']);
    } catch {
      return;
    }
    const query = { network: network ?? '', smartContractAddress: (smartContractAddress ?? '').trim() };
    contractInfo.mutate(query, {
      onSuccess: (info) => setShown({ kind: 'contract', info, network: query.network }),
      onError: (error) => toast.error(error),
    });
  };

  const test = () => {
    const webhook = webhookOf(form.getFieldsValue(['webhookUrl', 'webhookHeader', 'webhookHeaderValue']));
    if (!webhook) {
      form.setFields([{ name: 'webhookUrl', errors: [ForwardingMessages.webhookUrlRequired] }]);
      return;
    }
    testWebhook.mutate(webhook, {
      onSuccess: (result) => setShown({ kind: 'webhook', result }),
      onError: (error) => toast.error(error),
    });
  };

  const onFinish = (fields: CreateWalletFields) =>
    create.mutate(createRequest(fields), { onSuccess: toCreatedWallet, onError: (error) => toast.error(error) });

  const networkOptions = Object.keys(networks.data ?? {}).map((value) => ({
    value,
    label: displayNetworkName(value),
  }));
  const tokenOptions = (network ? (networks.data?.[network] ?? []) : []).map((value) => ({ value, label: value }));

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.createWallet}</Typography.Title>
      </div>
      <Card className="create-wallet-form">
        <Form<CreateWalletFields>
          form={form}
          name={FORM}
          layout="vertical"
          requiredMark={false}
          preserve={false}
          initialValues={{
            walletType: DEFAULT_WALLET_TYPE,
            minimumForwardingAmount: MINIMUM_FORWARDING_AMOUNT.default,
          }}
          onFinish={onFinish}
        >
          <Form.Item name="walletType" label={T.walletType}>
            <Select options={walletTypeOptions} />
          </Form.Item>
          <Form.Item name="network" label={T.network} rules={[Required.network]}>
            <Select options={networkOptions} loading={networks.isLoading} onChange={onNetworkChange} />
          </Form.Item>
          {visible.name && (
            <Form.Item name="name" label={T.name} rules={[Required.name]}>
              <Input maxLength={WALLET_NAME_MAX} />
            </Form.Item>
          )}
          {visible.token && (
            <Form.Item name="token" label={T.token} rules={[Required.token]}>
              <Select
                options={tokenOptions}
                disabled={!network}
                placeholder={network ? undefined : T.selectNetworkFirst}
              />
            </Form.Item>
          )}
          {visible.smartContractAddress && (
            <Form.Item label={T.smartContractAddress} htmlFor={fieldId('smartContractAddress')} required>
              <Space.Compact block>
                <Form.Item name="smartContractAddress" noStyle rules={[Required.smartContractAddress]}>
                  <Input maxLength={128} placeholder="0x..." />
                </Form.Item>
                <Button disabled={!smartContractAddress || contractInfo.isPending} onClick={() => void verify()}>
                  {T.verify}
                </Button>
              </Space.Compact>
            </Form.Item>
          )}
          {visible.minimumForwardingAmount && (
            <Form.Item
              name="minimumForwardingAmount"
              label={T.minimumForwardingAmount}
              rules={[Required.minimumForwardingAmount]}
              extra={T.amountHint}
            >
              <InputNumber
                min={MINIMUM_FORWARDING_AMOUNT.min}
                max={MINIMUM_FORWARDING_AMOUNT.max}
                step={MINIMUM_FORWARDING_AMOUNT.step}
                style={{ width: '100%' }}
              />
            </Form.Item>
          )}
          {visible.destinationPublicAddress && (
            <Form.Item
              key={walletType}
              name="destinationPublicAddress"
              label={T.destinationPublicAddress}
              rules={[Required.destinationPublicAddress]}
            >
              {forwarding ? (
                <DestinationSelect
                  network={network}
                  destinations={destinations}
                  onCreate={() => switchTo('destinationWallet')}
                />
              ) : (
                <Input maxLength={128} placeholder="0x..." />
              )}
            </Form.Item>
          )}
          {visible.gasFeeFundingWalletId && (
            <Form.Item
              name="gasFeeFundingWalletId"
              label={T.gasFeeFundingWalletId}
              rules={[Required.gasFeeFundingWalletId]}
            >
              <GasFeeWalletSelect
                network={network}
                wallets={gasFeeWallets}
                onCreate={() => switchTo('gasFeeFundingWallet')}
              />
            </Form.Item>
          )}
          {visible.webhook && (
            <>
              <Form.Item label={T.webhookUrl} htmlFor={fieldId('webhookUrl')} extra={T.webhookHint}>
                <Space.Compact block>
                  <Form.Item name="webhookUrl" noStyle>
                    <Input maxLength={WEBHOOK_URL_MAX} placeholder="https://" />
                  </Form.Item>
                  <Button disabled={!webhookUrl || testWebhook.isPending} onClick={test}>
                    {T.test}
                  </Button>
                </Space.Compact>
              </Form.Item>
              <Form.Item
                name="webhookHeader"
                label={T.webhookHeader}
                dependencies={['webhookUrl']}
                rules={[Required.webhookHeader]}
              >
                <Input maxLength={WEBHOOK_HEADER_MAX} />
              </Form.Item>
              <Form.Item
                name="webhookHeaderValue"
                label={T.webhookHeaderValue}
                dependencies={['webhookUrl']}
                rules={[Required.webhookHeaderValue]}
              >
                <Input maxLength={WEBHOOK_HEADER_VALUE_MAX} />
              </Form.Item>
            </>
          )}
          <Space>
            <SubmitButton pending={create.isPending} block={false}>
              {T.create}
            </SubmitButton>
            <Button disabled={create.isPending} onClick={toWalletList}>
              {T.cancel}
            </Button>
          </Space>
        </Form>
      </Card>
      {shown?.kind === 'contract' && (
        <SmartContractModal info={shown.info} network={shown.network} onClose={() => setShown(null)} />
      )}
      {shown?.kind === 'webhook' && <WebhookResponseModal result={shown.result} onClose={() => setShown(null)} />}
    </>
  );
}
