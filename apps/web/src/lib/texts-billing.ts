/** Interface texts of the billing pages and payment cards (Texts.billing, Texts.cards). */

// spec A §2 Billing overview
export const BillingTexts = {
  buyCredits: 'Buy Credits',
  wholeDollarsOnly: 'Whole US dollars only.',
  accountCards: "The account's cards",
  addPaymentCards: 'Add Payment Cards',
  addCard: 'Add Card',
  postingDelay: 'Posting of transactions and usage may be delayed by up to one day.',
  // ours: the unit prices and what this month has cost so far
  pricesTab: 'Prices',
  pricesListTitle: 'Prices',
  service: 'Service',
  unitPrice: 'Unit price (USD)',
  perRequest: 'per request',
  perForward: 'per forward',
  thisMonth: 'This month',
  costThisMonth: 'Cost this month (USD)',
  monthSoFar: (total: string, unposted: string) =>
    `This month so far: ${total} USD, of which ${unposted} USD is not yet posted to the ledger (usage posts once a day).`,
  transactionHistory: 'Transaction History',
  // ours: a month's statement
  statementMonth: 'Statement of another month',
  statementToDate: (month: string) => `${month} (to date)`,
  downloadStatement: 'Download statement',
  serviceUsageHistory: 'Service Usage History',
  transactionId: 'Transaction ID',
  transactionType: 'Transaction Type',
  amountUsd: 'Amount (USD)',
  date: 'Date',
  receipt: 'Receipt',
  open: 'Open',
  // ours: the empty tables say what to do next
  noTransactions: 'No transactions yet. Buy credits to make your first deposit.',
  noUsage: 'No usage yet. Calls made with your API keys show here, posted within a day.',
  // spec A §2 usage table
  resourceName: 'Resource Name',
  usage: 'Usage',
  price: 'Price',
  download: 'Download',
  // spec A §2 Buy Credits
  makeOneTimePay: 'Make One Time Pay',
  paid: (amount: string, card: string) => `Paid ${amount} with ${card}.`,
  creditNow: (credit: string) => `Available credit is now ${credit} USD.`,
  creditUpdating: 'Available credit is being updated…',
  seeBillingOverview: 'See it in Billing Overview',
  pay: 'Pay',
  deposit: 'Deposit',
  cancel: 'Cancel',
  noPaymentCard: 'This account does not have a payment card.',
  add: 'Add',
  autoPay: 'Auto Pay',
  thresholdUsd: 'Threshold (USD)',
  saveAutoPay: 'Save Auto Pay',
  // spec A §8
  autoPayEnabled: 'Thanks for enabling auto pay.',
  autoPayDisabled: 'Your auto pay has been turned off.',
  autoPaySaved: 'Your auto pay setting has been saved.',
  // ours: Auto Pay's rule in a sentence, from what is saved
  autoPayRule: (threshold: string, amount: string, card: string) =>
    `When available credit falls below ${threshold}, charge ${amount} to ${card}.`,
  autoPayNoCard: 'the default card (the account has none yet)',
  autoPayOff: 'Auto Pay is off: nothing is charged until you turn it on.',
  autoPayNoAmount: 'Set an amount and save to turn this into a rule.',
} as const;

// spec A §2 Add Payment Cards, §3 Payment card
export const CardTexts = {
  addCard: 'Add Card',
  addPaymentMethod: 'Add Payment Method',
  editCard: 'Edit Card',
  removePaymentMethod: 'Remove Payment Method',
  add: 'Add',
  update: 'Update',
  remove: 'Remove',
  cancel: 'Cancel',
  setAsDefault: 'Set as default',
  default: 'Default',
  chargeNote: 'Your card will only be charged when auto payments are set up or a one-time payment is confirmed.',
  cardSettings: 'Card settings',
  editCardLabel: 'Edit card',
  cardNumber: 'Card number',
  expiry: 'Expiry',
  cvc: 'CVC',
  confirmYourCard: 'Confirm your card',
  bankAsksToConfirm: 'Your bank asks you to confirm this card.',
  complete: 'Complete',
  fail: 'Fail',
  // ours: labels, placeholders and checks the spec does not word
  month: 'Month',
  year: 'Year',
  cardNumberPlaceholder: '1234 1234 1234 1234',
  expiryPlaceholder: 'MM/YY',
  cardNumberInvalid: 'Please enter the card number.',
  expiryInvalid: 'Please enter the expiry as MM/YY.',
  cvcInvalid: 'Please enter the CVC.',
  removeQuestion: (last4: string) => `Remove the card ending in ${last4}?`,
} as const;
