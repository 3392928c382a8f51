import type { ErrorCode } from './errors.ts';
/** The spec's exact texts, shared by server and web. Quoted as written, odd spacing included. */
export const Messages = {
  // spec B §5 identity forms
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  // Names go into e-mails: none holds a line break, a tab or another control character.
  firstNameInvalid: 'First name cannot hold line breaks, tabs or other control characters.',
  lastNameInvalid: 'Last name cannot hold line breaks, tabs or other control characters.',
  emailRequired: 'Email is required.',
  passwordRequired: 'Password is required.',
  confirmPasswordRequired: 'Confirm password is required.',
  passwordsDoNotMatch: 'Passwords do not match.',
  passwordMissMatch: 'Password miss match!',
  referralCodeDoesNotExist: 'Referral code does not exist.',
  notAnAmbassador: 'You are not part of the Ambassador Program.',
  forgotEmailRequired: 'Please enter an email.',
  verificationCodeRequired: 'Verification code is required.',
  oldPasswordRequired: 'Old password is required.',
  newPasswordRequired: 'New password is required.',
  passwordUpdated: 'Password has been updated.',
  verificationCodeSent: 'A verification code has been sent to your email.',
  // ours: the spec names no password policy (docs/decisions.md)
  passwordPolicy: 'Password must be 8 to 128 characters and contain at least one letter and one number.',
  // ours: ASVS 2.1.7, checked against a list shipped with the server (docs/decisions.md)
  commonPassword: 'This password is too common: it appears in lists of breached passwords. Please choose another.',
  invalidEmail: 'Please enter a valid email.',
  verificationCodeFormat: 'Verification code must be 6 digits.',
  welcome: 'Welcome back!',
  welcomeNew: 'Welcome! Your e-mail is verified.',
  providerNotConfigured: 'This sign-in provider is not configured.',
  // ours: third-party sign-in (docs/decisions.md)
  thirdPartyDenied: 'The sign-in was cancelled or refused at the provider.',
  thirdPartyStateInvalid: 'This sign-in link has expired or was already used. Please try again.',
  thirdPartyEmailNotVerified:
    'The provider did not confirm a verified e-mail address. Verify your e-mail there, or sign in with your password.',
  thirdPartyUnavailable: 'The sign-in provider could not be reached. Please try again later.',
  thirdPartyFailed: 'Third-party sign-in failed. Please try again.',
  // spec A §5 accounts
  invalidAccountName: 'Invalid account name',
  accountLimit: 'Accounts has reached the limit 10.',
  accountNameHint: 'Letters, numbers, spaces and _ . / = + - are allowed, up to 256 characters.',
  // spec A §8 / B §8 shared
  unknownError: 'Unknown error!',
  somethingWentWrong: 'Something went wrong.',
  copied: 'Text has been copied to clipboard.',
  // ours: the browser refused the clipboard (no permission, or not a secure context)
  copyFailed: 'Text could not be copied to clipboard.',
  createdName: (name: string) => `${name} has been created.`,
  updatedName: (name: string) => `${name} has been updated.`,
  // spec B §2 suspended bar
  suspended:
    'This account has been suspended due to an insufficient balance, related services may be effected. Please top up credits in order to re-activate your account.',
  clickToDeposit: 'Click to deposit',
  suspendedTooltip: 'The system will take a while to re-activate the account after a deposit.',
  // spec A §5, §8 cards
  onlyCard: 'Please add a payment card to proceed.',
  defaultCard: 'Cannot delete default payment card, please add another default card before deletion.',
  cardAdded: 'Payment card added.',
  cardSetDefault: 'Payment card has been set as default.',
  cardRemoved: 'Payment card has been removed.',
  cardUpdated: 'Payment card updated.',
  // spec A §5, §8 deposits
  depositAmountRequired: 'Deposit amount is required.',
  setDefaultCard: 'Please set one payment card as default.',
  paymentProcessing: 'Your payment is being processed. Thanks for using the product!',
  // spec A §8 auto pay
  autoPayEnabled: 'Thanks for enabling auto pay.',
  autoPayDisabled: 'Your auto pay has been turned off.',
  autoPaySaved: 'Your auto pay setting has been saved.',
  // ours: auto pay
  autoPayThresholdRange: 'The auto pay threshold must be between 1 and 99999 USD.',
  // ours: the spending cap (Billing)
  spendingCapRequired: 'Give the monthly spending cap, the auto pay monthly limit, or both.',
  spendingCapRange: 'The monthly spending cap must be between 0.01 and 9999999.99 USD.',
  autoPayMonthlyMaxRange: 'The auto pay monthly limit must be between 0.01 and 9999999.99 USD.',
  spendingCapSaved: 'Your spending cap has been saved.',
  transactionNotFound: 'Transaction not found.',
  // ours: deposits
  depositWhole: 'Deposit amount must be a whole number of USD.',
  depositMin: (min: number) => `The minimum deposit is ${min} USD.`,
  depositMax: 'The maximum deposit is 99999 USD.',
  idempotencyReused: 'This Idempotency-Key was already used for another deposit.',
  // ours: cards
  cardNotFound: 'Payment card not found.',
  cardAlreadyAdded: 'This payment card has already been added.',
  cardUnknownToProvider: 'The card could not be found at the card payment provider. Please add it again.',
  cardExpiryInPast: 'The expiry date must not be in the past.',
  unknownCardProvider: (name: string) => `Cards are handled by the ${name} card payment provider.`,
  // ours: bonuses
  welcomeCreditRedeemed: 'The welcome credit has already been redeemed.',
  welcomeCreditAdded: 'Welcome credit of 10 USD has been added.',
  bonusAccountMismatch: 'accountId must be the account named in ebs-account-id.',
  // ours: account creation
  accountNotFinished: 'Finish creating this account first.',
  accountAlreadyCreated: 'This account has already been created.',
  cardRequiredToCreate: 'A payment card is required to create an account.',
  // spec B §5, §8 settings and account access
  accountNameRequired: 'Account name is required.',
  userEmailRequired: 'User email is required.',
  userAdded: (email: string) => `${email} has been added to this account.`,
  userRemoved: 'User has been removed from this account.',
  removeUserTitle: 'Removing this user from account',
  removeUserText: 'The user will no long access to this account.',
  accountDeleted: 'Account has been deleted',
  // ours: account access (docs/roles.md)
  ownerOnlyRename: 'Only the owner of this account can rename it.',
  ownerOnlyUsers: 'Only the owner of this account can add or remove users.',
  ownerOnlyWelcomeCredit: 'Only the owner of this account can redeem the welcome credit.',
  ownerOnlySigningSecret: 'Only the owner of this account can rotate the signing secret.',
  ownerOnlyRevealSigningSecret: 'Only the owner of this account can reveal the signing secret.',
  ownerOnlyAlerts: 'Only the owner of this account can change its alerts.',
  ownerOnlySpendingCap: 'Only the owner of this account can change its spending cap.',
  alertsSaved: 'Alerts saved',
  signingSecretRotated:
    'The signing secret has been rotated. For 24 hours, webhooks are signed with both the new and the previous secret.',
  alreadyMember: (email: string) => `${email} is already a member of this account.`,
  alreadyInvited: (email: string) => `${email} has already been invited to this account.`,
  cannotRemoveSelf: 'You cannot remove yourself from this account.',
  cannotRemoveOwner: 'The owner of this account cannot be removed.',
  userNotInAccount: 'This user is not a member of this account.',
  // ours: access and token errors (ARCHITECTURE §3)
  tokenExpired: 'Token expired',
  cognitoTokenExpired: 'CognitoTokenExpired',
  notAMember: 'You do not have access to this account.',
  accountHeaderRequired: 'The ebs-account-id header must name an account.',
  // spec A §5, §8 Contact Us
  contactMessageTooShort: 'Your message is too short, please describe the issue in more detail.',
  contactReceived: 'We received your message, we will get back to you soon.',
  contactSubmitFailed: 'Failed to submit, please try again later.',
  // ours: Contact Us
  contactTooMany: 'You have sent several messages in a short time, please try again in a few minutes.',
  // spec A §4, §5, §8 API keys
  apiKeyNameRequired: 'API key name is required.',
  apiKeyNameRequiredOnUpdate: 'API  key name is required.',
  apiKeyDeleted: 'API key has been deleted.',
  apiKeyActivated: 'API key has been activated.',
  apiKeyDeactivated: 'API  key has been deactivated.',
  confirmDeactivateApiKey:
    'Confirm to deactivate API key? API key cannot be used to access any services once deactivated.',
  confirmDeleteApiKey:
    'Confirm to delete API key? API key will be permanently deleted and cannot be used to access any services.',
  // ours: API keys
  apiKeyNotFound: 'API key not found.',
  apiKeyNameTooLong: 'API key name must be at most 100 characters.',
  apiKeyNameInvalid: 'API key name cannot hold line breaks, tabs or other control characters.',
  apiKeyDeleteActive: 'Deactivate the API key before deleting it.',
  apiKeyLimit: 'An account can have at most 100 API keys.',
  apiKeyHourlyLimit: 'An account can create at most 20 API keys per hour. Please try again later.',
  apiKeySettingsSaved: 'API key security settings have been saved.',
  apiKeyRolled: 'A new secret has been made for this API key.',
  // ours: usage
  usageAccountMismatch: 'accountId must be the account named in ebs-account-id.',
  unknownResource: (name: string) => `Unknown resource ${name}.`,
  // ours: two-factor sign-in (docs/decisions.md)
  mfaCodeMismatch: 'Invalid authentication code, please try again.',
  mfaCodeUsed: 'This code has already been used, please wait for the next code.',
  mfaChallengeExpired: 'Your sign-in has expired, please sign in again.',
  mfaTooManyAttempts: 'Too many incorrect codes, please sign in again.',
  mfaAlreadyOn: 'Two-factor sign-in is already on.',
  mfaNotOn: 'Two-factor sign-in is not on.',
  mfaSetupFirst: 'Start turning on two-factor sign-in first.',
  mfaTurnedOn: 'Two-factor sign-in has been turned on.',
  mfaTurnedOff: 'Two-factor sign-in has been turned off.',
  authCodeRequired: 'Authentication code is required.',
  authCodeFormat: 'Authentication code must be 6 digits.',
  recoveryCodeRequired: 'Recovery code is required.',
  recoveryCodeFormat: 'A recovery code has 10 letters and digits, like abcde-23456.',
} as const;

/** Identity error names, as a hosted identity provider reports them in `error`. */
export const IdentityErrors = {
  notAuthorized: { error: 'NotAuthorizedException', message: 'Incorrect username or password.' },
  userNotConfirmed: { error: 'UserNotConfirmedException', message: 'User is not confirmed.' },
  codeMismatch: { error: 'CodeMismatchException', message: 'Invalid verification code provided, please try again.' },
  expiredCode: { error: 'ExpiredCodeException', message: 'Invalid code provided, please request a code again.' },
  usernameExists: { error: 'UsernameExistsException', message: 'An account with the given email already exists.' },
  limitExceeded: { error: 'LimitExceededException', message: 'Attempt limit exceeded, please try after some time.' },
  invalidPassword: { error: 'InvalidPasswordException', message: Messages.passwordPolicy },
  commonPassword: { error: 'InvalidPasswordException', message: Messages.commonPassword },
  alreadyConfirmed: {
    error: 'NotAuthorizedException',
    message: 'User cannot be confirmed. Current status is CONFIRMED',
  },
  wrongOldPassword: { error: 'NotAuthorizedException', message: 'Incorrect password.' },
  referralCode: { error: 'InvalidParameterException', message: Messages.referralCodeDoesNotExist },
  mfaCodeMismatch: { error: 'CodeMismatchException', message: Messages.mfaCodeMismatch },
  mfaCodeUsed: { error: 'CodeMismatchException', message: Messages.mfaCodeUsed },
  mfaChallengeExpired: { error: 'NotAuthorizedException', message: Messages.mfaChallengeExpired },
  mfaTooManyAttempts: { error: 'NotAuthorizedException', message: Messages.mfaTooManyAttempts },
  mfaAlreadyOn: { error: 'InvalidParameterException', message: Messages.mfaAlreadyOn },
  mfaNotOn: { error: 'InvalidParameterException', message: Messages.mfaNotOn },
  mfaSetupFirst: { error: 'InvalidParameterException', message: Messages.mfaSetupFirst },
} as const satisfies Record<string, { error: ErrorCode; message: string }>;

export const resendWaitMessage = (seconds: number) => `Please wait ${seconds} seconds before requesting another code.`;
