import {
  ALERT_KINDS,
  type AlertKind,
  type AlertSetting,
  endpoints,
  isUsdAlert,
  MEMBER_ROLE,
  Messages,
  type UserRole,
} from '@ebs/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, InputNumber, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { LoadFailed } from '../../components/load-state';
import { toast } from '../../lib/toast';
import { activeAlertsKey } from '../../session/account-alerts';

/** The card's words (ours: the spec has no alerts). */
const T = {
  title: 'Alerts',
  intro:
    'Each alert e-mails the owner (and the members chosen below) once when it starts to hold and once when it clears, and shows above every page of this account meanwhile.',
  kinds: {
    LOW_CREDIT: 'Available credit below',
    DAILY_SPEND: 'Spend today above',
    KEY_DAILY_LIMIT: 'An API key reached this share of its daily limit',
    ERROR_RATE: 'Error rate over 15 minutes above',
  } satisfies Record<AlertKind, string>,
  recipients: 'Also e-mail these members',
  ownerAlone: 'E-mailed to the owner alone.',
  alsoTo: (emails: string[]) => `E-mailed to the owner and ${emails.join(', ')}.`,
  save: 'Save alerts',
  ownerOnly: Messages.ownerOnlyAlerts,
};

/** Who is e-mailed, in words, where the list cannot be changed here. */
const recipientsText = (recipients: string[], members: UserRole[]) => {
  const emails = members.filter((m) => recipients.includes(m.id)).map((m) => m.email);
  return emails.length ? T.alsoTo(emails) : T.ownerAlone;
};

const alertsKey = (accountId: string) => ['account', accountId, 'alerts'] as const;

/** Settings: the account's alerts, changed by the owner; members see them read-only. */
export function AlertsCard({
  accountId,
  users,
  canManage,
}: {
  accountId: string;
  users: UserRole[] | undefined;
  canManage: boolean;
}) {
  const queryClient = useQueryClient();
  const saved = useQuery({
    queryKey: alertsKey(accountId),
    queryFn: () => api(endpoints.accounts.alerts, { accountId }),
    enabled: accountId !== '',
  });
  const [alerts, setAlerts] = useState<AlertSetting[]>([]);
  const [recipients, setRecipients] = useState<string[]>([]);
  useEffect(() => {
    if (!saved.data) return;
    setAlerts(saved.data.alerts);
    setRecipients(saved.data.recipients);
  }, [saved.data]);
  const save = useMutation({
    mutationFn: () => api(endpoints.accounts.updateAlerts, { accountId, body: { alerts, recipients } }),
    onSuccess: async (answer) => {
      toast.success(Messages.alertsSaved);
      queryClient.setQueryData(alertsKey(accountId), answer);
      await queryClient.invalidateQueries({ queryKey: activeAlertsKey(accountId) });
    },
    onError: (error) => toast.error(error),
  });
  const change = (kind: AlertKind, patch: Partial<AlertSetting>) =>
    setAlerts((current) => current.map((a) => (a.kind === kind ? { ...a, ...patch } : a)));
  const members = (users ?? []).filter((u) => u.roleName === MEMBER_ROLE);

  return (
    <Card title={T.title} className="settings-card">
      {saved.isError ? (
        <LoadFailed error={saved.error} onRetry={() => void saved.refetch()} retrying={saved.isFetching} />
      ) : (
        <Space direction="vertical" size="middle" className="alerts-card-body">
          <Typography.Text type="secondary">{T.intro}</Typography.Text>
          {ALERT_KINDS.map((kind) => {
            const alert = alerts.find((a) => a.kind === kind);
            const usd = isUsdAlert(kind);
            return (
              <Space key={kind} wrap className="alerts-card-row">
                <Checkbox
                  checked={alert?.enabled ?? false}
                  disabled={!canManage || !alert}
                  onChange={(event) => change(kind, { enabled: event.target.checked })}
                >
                  {T.kinds[kind]}
                </Checkbox>
                <InputNumber
                  aria-label={`${T.kinds[kind]} (${usd ? 'USD' : '%'})`}
                  value={alert?.threshold}
                  min={usd ? 0 : 1}
                  max={usd ? 1_000_000_000 : 100}
                  step={usd ? 1 : 5}
                  precision={usd ? 2 : 1}
                  suffix={usd ? 'USD' : '%'}
                  disabled={!canManage || !alert}
                  // Wide enough for the whole value and its unit ("10.00 USD"), never cut.
                  style={{ width: 150 }}
                  onChange={(value) => value !== null && change(kind, { threshold: value })}
                />
              </Space>
            );
          })}
          {canManage && members.length > 0 ? (
            <Select
              mode="multiple"
              className="alerts-card-recipients"
              aria-label={T.recipients}
              placeholder={T.recipients}
              value={recipients}
              onChange={setRecipients}
              options={members.map((m) => ({ value: m.id, label: m.email }))}
            />
          ) : (
            <Typography.Text>{recipientsText(recipients, members)}</Typography.Text>
          )}
          {canManage && (
            <Button type="primary" loading={save.isPending} disabled={!saved.data} onClick={() => save.mutate()}>
              {T.save}
            </Button>
          )}
        </Space>
      )}
    </Card>
  );
}
