import { type Static, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';

/**
 * spec A §3: the ledger's transaction types and the readable description of each. The last three
 * are ours: a card deposit given back to the card holder (a refund), taken back by the card holder's
 * bank (a dispute), and returned to the account when the dispute is won.
 */
export const TRANSACTION_TYPES = {
  DEPOSIT_ONE_TIME: 'One-time deposit',
  DEPOSIT_AUTO: 'Auto deposit',
  WITHDRAW_RESOURCE_USAGE: 'Resource usage withdrawal',
  WELCOME_CREDIT: 'Welcome credit',
  ADMIN_MANUAL_DEPOSIT: 'Manual deposit',
  REFUND_CARD_DEPOSIT: 'Card deposit refund',
  DISPUTE_CARD_DEPOSIT: 'Card deposit disputed',
  DISPUTE_REINSTATED: 'Disputed deposit reinstated',
} as const;
export type TransactionType = keyof typeof TRANSACTION_TYPES;

/** An unknown type shows its own raw value. */
export const describeTransactionType = (type: string): string =>
  (TRANSACTION_TYPES as Record<string, string>)[type] ?? type;

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

export const TransactionListQuery = Type.Object(
  {
    // spec A §7: the monthly summary fetches up to 1000 records.
    limit: defaulted(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
    offset: defaulted(Type.Integer({ minimum: 0, default: 0 })),
    dateStart: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC)' })),
    dateEnd: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC)' })),
    typeIn: Type.Optional(
      Type.String({ maxLength: 500, description: 'types as a JSON array text, or separated by commas' }),
    ),
    sortBy: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('amount')], { default: 'createdAt' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
  },
  { additionalProperties: false },
);

export const Transaction = Type.Object({
  id: Type.String(),
  type: Type.String(),
  amount: Type.Number({ description: 'USD, signed: deposits positive, withdrawals negative' }),
  status: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  metadata: Type.Object(
    {
      receiptUrl: Type.Optional(Type.String()),
      note: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
});

export const TransactionList = Type.Object({
  transactions: Type.Array(Transaction),
  totalCount: Type.Integer(),
});

export const TransactionTypeList = Type.Array(Type.Object({ type: Type.String(), description: Type.String() }));

/** spec A §1, §9: a one-time welcome credit of 10 USD per user. */
export const WELCOME_CREDIT_USD = 10;

export const RedeemBonusBody = Type.Object(
  { accountId: Type.String({ format: 'uuid' }), type: Type.Literal('WELCOME_CREDIT') },
  { additionalProperties: false },
);
export const RedeemBonusResult = Type.Object({
  accountId: Type.String(),
  type: Type.Literal('WELCOME_CREDIT'),
  amount: Type.Number(),
  transactionId: Type.String(),
});

export type TransactionListQuery = Static<typeof TransactionListQuery>;
export type Transaction = Static<typeof Transaction>;
export type TransactionList = Static<typeof TransactionList>;

export const ReceiptQuery = Type.Object(
  { transactionId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
/** A receipt as a file: its name and the PDF bytes (as Node serialises a Buffer). */
export const ReceiptFile = Type.Object({
  fileName: Type.String(),
  contentType: Type.Literal('application/pdf'),
  pdf: Type.Object({ type: Type.Literal('Buffer'), data: Type.Array(Type.Integer({ minimum: 0, maximum: 255 })) }),
});
export type ReceiptFile = Static<typeof ReceiptFile>;

/** The statement of a period (spec A §7 names the call but not its path; docs/decisions.md). */
export const StatementQuery = Type.Object(
  {
    dateStart: Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC)' }),
    dateEnd: Type.String({ pattern: DATE, description: 'YYYY-MM-DD, inclusive (UTC)' }),
  },
  { additionalProperties: false },
);
