/**
 * Interface texts the contract's `Messages` does not hold yet: labels, headings and page names,
 * most quoted from spec B §2 and spec A §2.
 */
export const Texts = {
  productNameFallback: 'EBS Console',
  tagline: 'Reliable RPC endpoints and token forwarding for ten networks.',
  loading: 'Loading',
  notAvailableYet: 'This page is not available yet.',

  // spec B §2 login / sign up
  login: 'Login',
  signUp: 'Sign up',
  notAMember: 'Not a member?',
  alreadyAMember: 'Already a member?',
  email: 'Email',
  password: 'Password',
  confirmPassword: 'Confirm password',
  firstName: 'First name',
  lastName: 'Last name',
  referralCode: 'Referral code (optional)',
  forgotPasswordLink: 'Forgot password?',
  or: 'or',
  signInWithGoogle: 'Sign in with Google',
  signInWithGitHub: 'Sign in with GitHub',

  // spec B §2 verification, forgot, reset, change password
  emailValidation: 'Email Validation',
  verificationCode: 'Verification code',
  verify: 'Verify',
  backToLogin: 'Back to login',
  resendCode: 'Re-send code',
  resendIn: (seconds: number) => ` in ${seconds}s`,
  forgotPasswordTitle: 'Forgot password',
  sendRequest: 'Send request',
  resetPasswordTitle: 'Reset password',
  reset: 'Reset',
  changePasswordTitle: 'Change password',
  oldPassword: 'Old password',
  newPassword: 'New password',
  update: 'Update',

  // spec B §2 header user menu
  userMenu: {
    createAccount: 'Create account',
    myAccounts: 'My accounts',
    changePassword: 'Change password',
    ambassadorProgram: 'Ambassador Program',
    signOut: 'Sign out',
  },

  // spec B §2 side menu
  sideMenu: {
    overview: 'Overview',
    services: 'Services',
    rpc: 'RPC',
    tokenForwarding: 'Token Forwarding',
    wallets: 'Wallets',
    transactions: 'Transactions',
    apiKeys: 'API Keys',
    billings: 'Billings',
    buyCredits: 'Buy Credits',
    addPaymentCards: 'Add Payment Cards',
    settings: 'Settings',
    documentation: 'Documentation',
    contactUs: 'Contact Us',
  },

  // spec A §2 My Accounts
  myAccounts: 'My Accounts',
  createNewAccount: 'Create new account',
  accountName: 'Account name',
  accountId: 'Account ID',
  status: 'Status',
  role: 'Role',

  // spec A §2 overview
  availableCredits: 'Available Credits (USD)',

  // spec A §2 Billing overview
  billing: {
    buyCredits: 'Buy Credits',
    addPaymentCards: 'Add Payment Cards',
    addCard: 'Add Card',
    postingDelay: 'Posting of transactions and usage may be delayed by up to one day.',
    transactionHistory: 'Transaction History',
    serviceUsageHistory: 'Service Usage History',
    usageComing: 'Service usage history is not available yet.',
    transactionId: 'Transaction ID',
    transactionType: 'Transaction Type',
    amountUsd: 'Amount (USD)',
    date: 'Date',
    receipt: 'Receipt',
    open: 'Open',
  },

  // page names of the screens still to come (spec A §2, spec B §2)
  pageTitles: {
    createAccount: 'Create Account',
    ambassadorProgram: 'Ambassador Program',
    services: 'Services',
    rpc: 'RPC Service',
    wallets: 'Token Forwarding Wallets',
    createWallet: 'Create Wallet',
    transactions: 'Token Forwarding Transactions',
    apiKeys: 'API Key Management',
    billingsOverview: 'Billing Overview',
    buyCredits: 'Buy Credits',
    addPaymentCard: 'Add Payment Cards',
    settings: 'Settings',
    contactUs: 'Contact Us',
  },
} as const;
