import { type ApiKeySettings, KeyRuleMessages } from '@ebs/contract';
import { Alert, Divider, Form, type FormInstance, type FormRule, InputNumber, Switch } from 'antd';
import { SubmitButton } from '../../components/submit-button';
import { toast } from '../../lib/toast';
import { ExpiryField, utcText } from './expiry-field';
import { JwtKeysField } from './jwt-keys-field';
import { KeySecurityTexts as T } from './key-security-texts';
import {
  hasChanges,
  publicKeyCount,
  type SecurityValues,
  securityValues,
  settingsChanges,
} from './key-settings-changes';
import { useUpdateApiKeySettings } from './keys-queries';
import { RuleListField } from './rule-list-field';

/** The contract's ceiling of a key's own limits. */
const LIMIT_MAX = 1_000_000_000;

const refuse = (message: string) => Promise.reject(new Error(message));

interface KeySecurityFormProps {
  accountId: string;
  apiKeyId: string;
  /** As last saved: what the form starts from and what a change is measured against. */
  settings: ApiKeySettings;
  /** The drawer's instance: it asks the form, when closed, whether a change would be dropped. */
  form: FormInstance<SecurityValues>;
}

/** A key's rules, limits, expiry and JWT keys; Save sends only what changed. */
export function KeySecurityForm({ accountId, apiKeyId, settings, form }: KeySecurityFormProps) {
  const save = useUpdateApiKeySettings(accountId, apiKeyId);
  const jwtKeys = Form.useWatch('jwtKeys', form);
  const jwtRequired = Form.useWatch('jwtRequired', form) ?? settings.jwtRequired;
  const expiresAt = Form.useWatch('expiresAt', form);
  const origins = Form.useWatch('allowedOrigins', form) ?? settings.allowedOrigins;
  const noPublicKeys = (jwtKeys ? publicKeyCount(jwtKeys) : settings.jwtPublicKeys.length) === 0;

  const onFinish = (values: SecurityValues) => {
    if (!hasChanges(settings, values)) {
      toast.info(T.nothingToSave);
      return;
    }
    save.mutate(settingsChanges(settings, values), {
      onSuccess: (saved) => form.setFieldsValue(securityValues(saved)),
      onError: (error) => toast.error(error),
    });
  };

  const jwtRule: FormRule = ({ getFieldValue }) => ({
    validator: (_rule, required: boolean) =>
      required && publicKeyCount(getFieldValue('jwtKeys')) === 0
        ? refuse(KeyRuleMessages.jwtWithoutKeys)
        : Promise.resolve(),
  });
  const expiryRule: FormRule = {
    validator: (_rule, value: string | null) =>
      value && value !== settings.expiresAt && Date.parse(value) <= Date.now()
        ? refuse(KeyRuleMessages.expiryInPast)
        : Promise.resolve(),
  };

  return (
    <Form<SecurityValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={securityValues(settings)}
      onFinish={onFinish}
    >
      <RuleListField
        list="allowedOrigins"
        label={T.allowedOrigins}
        hint={T.originsHint}
        anyText={T.anyOrigin}
        placeholder={T.originPlaceholder}
        addLabel={T.addOrigin}
      />
      {origins.length > 0 && (
        // Said before it is saved: a server or curl calling with this key stops working.
        <Alert type="warning" showIcon className="key-origins-warning" message={T.originsRefuseOthers} />
      )}
      <RuleListField
        list="allowedIps"
        label={T.allowedIps}
        hint={T.ipsHint}
        anyText={T.anyIp}
        placeholder={T.ipPlaceholder}
        addLabel={T.addIp}
      />
      <RuleListField list="allowedMethods" label={T.allowedMethods} hint={T.methodsHint} anyText={T.anyMethod} />
      <RuleListField
        list="allowedContracts"
        label={T.allowedContracts}
        hint={T.contractsHint}
        anyText={T.anyContract}
        placeholder={T.contractPlaceholder}
        addLabel={T.addContract}
      />
      <Divider />
      <Form.Item name="requestsPerSecond" label={T.requestsPerSecond} extra={T.limitHint}>
        <InputNumber min={1} max={LIMIT_MAX} precision={0} placeholder={T.noLimit} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="requestsPerDay" label={T.requestsPerDay} extra={T.limitHint}>
        <InputNumber min={1} max={LIMIT_MAX} precision={0} placeholder={T.noLimit} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="computeUnitsPerSecond" label={T.computeUnitsPerSecond} extra={T.computeUnitsHint}>
        <InputNumber min={1} max={LIMIT_MAX} precision={0} placeholder={T.noLimit} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="computeUnitsPerDay" label={T.computeUnitsPerDay} extra={T.computeUnitsHint}>
        <InputNumber min={1} max={LIMIT_MAX} precision={0} placeholder={T.noLimit} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="expiresAt"
        label={T.expiryDate}
        extra={expiresAt ? T.worksUntil(utcText(expiresAt)) : undefined}
        rules={[expiryRule]}
      >
        <ExpiryField />
      </Form.Item>
      <Divider />
      <Form.Item
        name="jwtRequired"
        label={T.jwtRequired}
        valuePropName="checked"
        extra={noPublicKeys && !jwtRequired ? KeyRuleMessages.jwtWithoutKeys : T.jwtHint}
        dependencies={['jwtKeys']}
        rules={[jwtRule]}
      >
        <Switch disabled={noPublicKeys && !jwtRequired} />
      </Form.Item>
      <Form.Item name="jwtKeys" label={T.publicKeys}>
        <JwtKeysField />
      </Form.Item>
      {/* Stays in view at the drawer's foot while its long list of settings scrolls. */}
      <div className="key-security-save">
        <SubmitButton pending={save.isPending} block={false}>
          {T.save}
        </SubmitButton>
      </div>
    </Form>
  );
}
