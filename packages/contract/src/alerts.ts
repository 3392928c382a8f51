import { type Static, Type } from '@sinclair/typebox';

/**
 * What an account can be told of, each with its threshold: available credit below a USD amount,
 * spend today above one, a key past a share of its daily request limit, the share of failed calls
 * over the last 15 minutes above a percentage.
 */
export const ALERT_KINDS = ['LOW_CREDIT', 'DAILY_SPEND', 'KEY_DAILY_LIMIT', 'ERROR_RATE'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Whether a kind's threshold is USD (else a percentage, 1 to 100). */
export const isUsdAlert = (kind: AlertKind) => kind === 'LOW_CREDIT' || kind === 'DAILY_SPEND';

/** The thresholds an account starts with, every alert off. */
export const DEFAULT_ALERT_THRESHOLDS: Record<AlertKind, number> = {
  LOW_CREDIT: 5,
  DAILY_SPEND: 10,
  KEY_DAILY_LIMIT: 80,
  ERROR_RATE: 5,
};

/** The error rate is judged over this many minutes, and only past this many calls in them. */
export const ERROR_RATE_MINUTES = 15;
export const ERROR_RATE_MIN_CALLS = 20;

export const AlertKindSchema = Type.Union(ALERT_KINDS.map((kind) => Type.Literal(kind)));

/**
 * Told of whenever the account has a monthly spending cap (Billing), so not in the alerts form:
 * this month's RPC usage at 80% of the cap, and at the cap (its calls are refused). The alert's
 * subject is the share, '80' or '100'.
 */
export const SPENDING_CAP_ALERT = 'SPENDING_CAP';
export const SPENDING_CAP_SHARES = [80, 100] as const;

/** What an alert that holds can be: one of the account's alerts, or the spending cap's. */
export const ACTIVE_ALERT_KINDS = [...ALERT_KINDS, SPENDING_CAP_ALERT] as const;
export type ActiveAlertKind = (typeof ACTIVE_ALERT_KINDS)[number];
export const ActiveAlertKindSchema = Type.Union(ACTIVE_ALERT_KINDS.map((kind) => Type.Literal(kind)));

export const AlertSetting = Type.Object(
  {
    kind: AlertKindSchema,
    enabled: Type.Boolean(),
    threshold: Type.Number({
      minimum: 0,
      maximum: 1_000_000_000,
      description: 'USD for LOW_CREDIT and DAILY_SPEND (2 decimals at most); a percentage, 1 to 100, for the others',
    }),
  },
  { additionalProperties: false },
);
export type AlertSetting = Static<typeof AlertSetting>;

/** GET and POST /api/v1.0/account/alerts: every kind once, and the members told besides the owner. */
export const AlertSettings = Type.Object(
  {
    alerts: Type.Array(AlertSetting, { minItems: 1, maxItems: ALERT_KINDS.length }),
    recipients: Type.Array(Type.String({ format: 'uuid' }), {
      maxItems: 50,
      description: "user ids of the account's members e-mailed besides the owner",
    }),
  },
  { additionalProperties: false },
);
export type AlertSettings = Static<typeof AlertSettings>;

/** An alert that holds now: shown in the console's header until it clears. */
export const ActiveAlert = Type.Object({
  kind: ActiveAlertKindSchema,
  /** The key's id for KEY_DAILY_LIMIT, the share of the cap ('80' or '100') for SPENDING_CAP; null for the others. */
  subject: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
  since: Type.String({ format: 'date-time' }),
});
export type ActiveAlert = Static<typeof ActiveAlert>;

export const ActiveAlertList = Type.Object({ active: Type.Array(ActiveAlert) });
export type ActiveAlertList = Static<typeof ActiveAlertList>;
