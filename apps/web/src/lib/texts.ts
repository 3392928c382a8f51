import { BillingTexts, CardTexts } from './texts-billing';

/**
 * Interface texts the contract's `Messages` does not hold yet: labels, headings and page names,
 * most quoted from spec B §2 and spec A §2.
 */
export const Texts = {
  productNameFallback: 'EBS Console',
  tagline: 'Reliable RPC endpoints and token forwarding for ten networks.',
  loading: 'Loading',
  // ours: a failed load says what to do next (components/load-state.tsx)
  loadFailedHint: 'Check your connection, then try again.',
  tryAgain: 'Try again',
  noAccounts: 'No accounts yet. Create one with Create new account.',
  welcomeTitle: 'Welcome! Start with an account.',
  createFirstAccount: 'Create your first account',
  welcomeText:
    'An account holds your API keys, credit and team. Create one, then create your first API key on its last ' +
    'step and make a first call in a minute.',

  // spec A §2 detail-row display and the copy button (its accessible name is ours)
  view: 'View',
  copy: 'Copy',
  /** A copy button beside a named value, where a plain "Copy" would be ambiguous. */
  copyOf: (what: string) => `Copy ${what}`,

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
  /** A third-party sign-in button; the provider's name is configured on the server (docs/operations.md). */
  signInWith: (provider: string) => `Sign in with ${provider}`,

  // spec B §2 verification, forgot, reset, change password
  emailValidation: 'Email Validation',
  passwordBelowRule: 'This password does not follow the rule below.',
  codeWentTo: 'It went to',
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
  securityTitle: 'Security',
  twoFactorMoved: 'Two-factor sign-in is turned on and off on the',
  oldPassword: 'Old password',
  newPassword: 'New password',
  update: 'Update',

  // spec B §2 header user menu
  userMenu: {
    createAccount: 'Create account',
    myAccounts: 'My accounts',
    changePassword: 'Change password',
    security: 'Security',
    ambassadorProgram: 'Ambassador Program',
    signOut: 'Sign out',
  },

  // spec B §2 side menu
  sideMenu: {
    overview: 'Overview',
    services: 'Services',
    rpc: 'RPC',
    // ours: the networks' status and prices, and the gateway's insight pages
    status: 'Status',
    pricing: 'Pricing',
    analytics: 'Analytics',
    requests: 'Request Log',
    // ours: address-activity webhooks
    webhooks: 'Webhooks',
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
    collapse: 'Collapse menu',
    expand: 'Expand menu',
  },

  // ours: the account's alerts (the notice above account pages, the Settings card)
  alerts: {
    holding: 'Alerts on this account:',
    manage: 'Manage alerts',
  },

  // ours: a table's rows as a file, with its filters
  exportCsv: 'Export CSV',

  // spec A §2 My Accounts
  myAccounts: 'My Accounts',
  createNewAccount: 'Create new account',
  accountName: 'Account name',
  accountId: 'Account ID',
  status: 'Status',
  role: 'Role',

  // spec A §2 /accounts/create
  createAccount: {
    accountNameStep: 'Account Name',
    paymentStep: 'Payment',
    congratulationsStep: 'Congratulations',
    optional: 'Optional',
    cancel: 'Cancel',
    next: 'Next',
    back: 'Back',
    create: 'Create',
    skip: 'Skip',
    done: 'Done',
    // ours: the spec does not word these
    welcomeCredit: 'Add my one-time welcome credit of 10 USD to this account',
    paymentHint: 'Add the card this account pays with. You can add or change cards later under Billings.',
  },

  // spec A §2 overview
  availableCredits: 'Available Credits (USD)',
  overview: {
    monthlyBill: 'Monthly Bill',
    monthlyApiCalls: 'Monthly API Calls',
    accountBilling: 'Account Billing',
    serviceUsage: 'Service Usage',
    lastDays: (days: number) => `Last ${days} Days`,
    // ours: the spec does not word these
    usd: 'USD',
    requests: 'requests',
    legend: 'Legend',
    noUsageInRange: 'No usage in this range.',
    firstCallBefore: 'To make a first call, open the ',
    firstCallLink: 'RPC page',
    firstCallAfter: ": it builds each network's URL from an API key.",
    billCounts: "The usage posted to the ledger this month (UTC); each day's usage is posted once a day.",
    notYetPosted: (usd: string) => `Not yet posted: ${usd} USD.`,
    callsCount:
      "RPC requests metered this month (UTC), as billed; those refused by a key's rules or limits are not counted.",
    forwardsApart: (count: string) => `Token forwards, counted apart: ${count}.`,
  },

  billing: BillingTexts,
  cards: CardTexts,

  // spec A §2 Contact Us
  support: {
    account: 'Account',
    message: 'Message',
    submit: 'Submit',
    // ours: the spec does not word a hint
    messagePlaceholder: 'Describe the issue in as much detail as you can.',
  },

  // spec B §2 Settings
  settings: {
    accountInformation: 'Account Information',
    accountAccess: 'Account Access',
    name: 'Name',
    status: 'Status',
    id: 'ID',
    createdAt: 'Created At',
    owner: 'Owner',
    userRoles: 'User Roles',
    signingSecret: 'Signing Secret',
    reveal: 'Reveal',
    editAccountName: 'Edit Account Name',
    addUserToAccount: 'Add User to Account',
    addUser: 'Add User',
    remove: 'Remove',
    cancel: 'Cancel',
    // ours: the spec does not word these
    accountName: 'Account name',
    userEmail: 'User email',
    email: 'Email',
    role: 'Role',
    actions: 'Actions',
    save: 'Save',
    add: 'Add',
    hide: 'Hide',
    editName: 'Edit account name',
    hiddenSecret: '••••••••••••••••',
    rotate: 'Rotate',
    rotateSecretTitle: 'Rotate the signing secret?',
    rotateSecretText:
      'A new signing secret replaces the current one. For 24 hours, webhooks carry signatures of both, so your ' +
      'receivers can switch to the new secret without missing a delivery; after that only the new one verifies them.',
    rotateSecretAgain: 'Rotating again within these 24 hours ends the secret replaced before at once.',
    previousSecretUntil: (at: string) => `The previous secret also signs webhooks until ${at}.`,
    copyAccountId: 'Copy account ID',
    ownerOnlyHint: 'Only the owner of this account can rename it and add or remove users.',
    ownerOnlySecret: 'Only the owner of this account can reveal the signing secret.',
    deleteAccount: 'Delete Account',
    deleteAccountQuestion: 'Delete this account?',
    delete: 'Delete',
    inviteRoleHelp:
      'Uses the services, API keys and billing. Only the owner manages users, alerts and the signing secret; ' +
      'an account has one owner.',
    inviteHowItWorks:
      'We e-mail them an invitation. They show as INVITED in Account Access until they accept it, then as MEMBER.',
    invitedUntilAccepted: 'until they accept',
    /** A role as a person reads it: OWNER → Owner. */
    roleLabel: (roleName: string) => roleName.charAt(0) + roleName.slice(1).toLowerCase(),
  },

  // spec B §2 Services overview; the descriptions are ours
  services: {
    rpc: 'RPC',
    rpcDescription: 'JSON-RPC endpoints for ten networks, called with your API keys.',
    tokenForwarding: 'Token Forwarding',
    tokenForwardingComingSoon: 'Token Forwarding (Coming Soon)',
    tokenForwardingDescription: 'Forwards incoming tokens from your wallets to a destination wallet, with webhooks.',
    // ours: how an account without the feature gets it
    tokenForwardingAsk: 'Turned on per account on request: ',
    tokenForwardingAskLink: 'ask for it through Contact Us',
    tokenForwardingRequest:
      'Please turn on Token Forwarding for this account. Networks and tokens we plan to forward: ',
    // ours: address-activity webhooks
    webhooks: 'Webhooks',
    webhooksDescription: 'Posts the native and token transfers to and from your addresses to your URL, block by block.',
    // ours: the way to the Pricing page
    pricingIntro: 'RPC calls are priced in compute units (CU), by method. ',
    pricingLink: 'See each method’s compute units and what your last 30 days would cost',
  },

  // spec B §2 RPC Service
  rpc: {
    createNewKey: 'Create New Key',
    documentation: 'Documentation',
    apiKeyId: 'API key ID',
    apiKeyIdPlaceholder: 'Enter your existing key id',
    apiKey: 'API key',
    apiKeyPlaceholder: 'Enter your existing key',
    post: 'POST',
    // ours: the gateway's per-method figures
    analytics: 'Analytics',
    // ours: the accessible name of a network's read-only URL box
    urlOf: (network: string) => `${network} URL`,
    // ours: the WebSocket endpoints (subscriptions), under the HTTP ones
    webSocketTitle: 'WebSocket',
    webSocketIntro:
      'The same key over WebSocket: JSON-RPC calls and eth_subscribe (newHeads, logs, newPendingTransactions).',
    ws: 'WS',
    webSocketUrlOf: (network: string) => `${network} WebSocket URL`,
    copyWebSocketUrl: 'Copy WebSocket URL',
  },

  // spec A §2 API Key Management
  keys: {
    deleteActiveHint: 'Deactivate the key before deleting it.',
    previousKeyWorksUntil: (at: string) => `The previous key keeps working until ${at}.`,
    previousKeyStopped: 'The previous key stopped working at once.',
    apiKeyName: 'API Key Name',
    status: 'Status',
    generateNewApiKeys: 'Generate New API Keys',
    editApiKey: 'Edit API Key',
    update: 'Update',
    cancel: 'Cancel',
    activate: 'Activate',
    deactivate: 'Deactivate',
    delete: 'Delete',
    done: 'Done',
    // ours: the spec does not word these
    actions: 'Actions',
    editName: 'Edit API key name',
    createApiKey: 'Create API Key',
    create: 'Create',
    namePlaceholder: 'e.g. Production backend',
    newApiKey: 'Your New API Key',
    apiKeyId: 'API Key ID',
    apiKey: 'API Key',
    displayedOnce:
      'The API key ID and the API key are displayed only once. Copy them and save them somewhere safe now: after Done they cannot be shown again.',
    deactivateApiKey: 'Deactivate API Key',
    deleteApiKey: 'Delete API Key',
    noApiKeys: 'No API keys yet. Create one with Generate New API Keys.',
  },

  // spec B §2 Ambassador Program
  ambassador: {
    currentBalance: 'Current balance',
    code: 'Ambassador code',
    rewardRate: 'Reward rate',
    linkedUsers: 'Linked users',
    howItWorks: (percent: string) =>
      `Share your code: people enter it as the referral code when they sign up. You earn ${percent} of every card payment made on the accounts they create.`,
    noLinkedUsers: 'No one has signed up with your code yet.',
  },

  // ours: two-factor sign-in (the login's second step and its settings on the Change password page)
  twoFactor: {
    title: 'Two-factor sign-in',
    loginIntro: 'Enter the 6-digit code from your authenticator app.',
    loginRecoveryIntro: 'Enter one of the recovery codes you saved when you turned on two-factor sign-in.',
    authenticationCode: 'Authentication code',
    recoveryCode: 'Recovery code',
    useRecoveryCode: 'Use a recovery code',
    useAuthenticatorApp: 'Use the authenticator app',
    verify: 'Verify',
    about: 'When it is on, signing in asks for a code from an authenticator app on your phone after your password.',
    status: 'Status',
    on: 'On',
    off: 'Off',
    turnOn: 'Turn on',
    turnOff: 'Turn off',
    cancel: 'Cancel',
    confirm: 'Confirm',
    scan: 'Scan this QR code with your authenticator app, or type the secret key into it. Then enter the 6-digit code the app shows.',
    qrCode: 'QR code for the authenticator app',
    secretKey: 'Secret key',
    turnOffIntro:
      'Enter a current code from your authenticator app, or a recovery code, to turn two-factor sign-in off.',
    codeOrRecoveryCode: 'Authentication or recovery code',
    recoveryCodesTitle: 'Save your recovery codes',
    recoveryCodesText:
      'Each code signs you in once if you lose your authenticator app. They are shown only now: copy them and keep them somewhere safe.',
    recoveryCodesList: 'Recovery codes',
    saved: 'I have saved them',
  },

  // page names (spec A §2, spec B §2)
  pageTitles: {
    overview: 'Overview',
    createAccount: 'Create Account',
    ambassadorProgram: 'Ambassador Program',
    services: 'Services',
    rpc: 'RPC Service',
    status: 'Status',
    pricing: 'Pricing',
    analytics: 'Analytics',
    requests: 'Request Log',
    webhooks: 'Webhooks',
    webhook: 'Webhook',
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
