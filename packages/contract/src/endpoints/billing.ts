import { AccountSettingResult, UpdateAccountSettingsBody } from '../accounts.ts';
import { DepositBody, DepositHeaders, DepositResult } from '../cards.ts';
import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import {
  ReceiptFile,
  ReceiptQuery,
  RedeemBonusBody,
  RedeemBonusResult,
  StatementQuery,
  TransactionList,
  TransactionListQuery,
  TransactionTypeList,
} from '../transactions.ts';

const billingCall = { access: 'account', tag: 'billing', headers: AccountHeaders } as const;

/** The deposits, auto pay, transactions, receipts and statements. */
export const billingEndpoints = {
  listTransactions: endpoint({
    ...billingCall,
    method: 'GET',
    path: '/api/v1.0/transaction',
    query: TransactionListQuery,
    response: TransactionList,
  }),
  /** The transaction types and their descriptions: the same for every account, so no account header. */
  listTransactionTypes: endpoint({
    access: 'user',
    tag: 'billing',
    method: 'GET',
    path: '/api/v1.0/transaction/type',
    response: TransactionTypeList,
  }),
  /** The owner spends their one-time welcome credit on the account (spec A §1, §9). */
  redeemBonus: endpoint({
    ...billingCall,
    method: 'POST',
    path: '/api/v1.0/account/redeemBonus',
    body: RedeemBonusBody,
    response: RedeemBonusResult,
  }),
  /** A one-time deposit from the account's default card; the optional `idempotency-key` header keeps a retry from charging twice. */
  deposit: endpoint({
    ...billingCall,
    method: 'POST',
    path: '/api/v1.0/payment/card/deposit',
    headers: DepositHeaders,
    body: DepositBody,
    response: DepositResult,
  }),
  /** Saves the auto pay setting (spec A §7: settingName autoDeposit), or the owner's spending cap (settingName spendingCap). */
  updateAccountSettings: endpoint({
    ...billingCall,
    method: 'POST',
    path: '/api/v1.0/account/updateAccountSettings',
    body: UpdateAccountSettingsBody,
    response: AccountSettingResult,
  }),
  /** A transaction's receipt as a PDF, inside the success wrapper. */
  downloadReceipt: endpoint({
    ...billingCall,
    method: 'GET',
    path: '/api/v1.0/payment/receipt/download',
    query: ReceiptQuery,
    response: ReceiptFile,
  }),
  /** The statement of a period as a PDF, inside the success wrapper (docs/decisions.md). */
  downloadStatement: endpoint({
    ...billingCall,
    method: 'GET',
    path: '/api/v1.0/transaction/statement',
    query: StatementQuery,
    response: ReceiptFile,
  }),

  /** The transactions as CSV, with the list's filters and order (its paging is ignored): every matching row, streamed. */
  exportTransactions: endpoint({
    ...billingCall,
    method: 'GET',
    path: '/api/v1.0/transaction/export',
    query: TransactionListQuery,
    description: 'text/csv with a header row; not the success wrapper.',
  }),
};
