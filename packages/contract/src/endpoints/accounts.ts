import {
  AddUserBody,
  AddUserResult,
  RemoveUserParams,
  RotatedSigningSecret,
  SigningSecret,
  UpdateAccountNameBody,
} from '../account-access.ts';
import {
  AccountDetails,
  AccountList,
  AccountListQuery,
  AccountSummary,
  CreateAccountBody,
  FeatureQuery,
  FeatureResult,
  FinishCreateAccountBody,
  OptionalAccountHeaders,
} from '../accounts.ts';
import { ActiveAlertList, AlertSettings } from '../alerts.ts';
import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import { Empty } from '../wrapper.ts';

const accountCall = { tag: 'accounts' } as const;
/** The Settings page's calls (spec B §7). */
const settingsCall = { access: 'account', tag: 'account settings', headers: AccountHeaders } as const;

/** The accounts, members, account settings, signing secret. */
export const accountEndpoints = {
  /** The caller's accounts; joins the accounts they were invited to first. */
  list: endpoint({
    ...accountCall,
    access: 'user',
    method: 'GET',
    path: '/api/v1.0/account',
    headers: OptionalAccountHeaders,
    query: AccountListQuery,
    response: AccountList,
  }),
  create: endpoint({
    ...accountCall,
    access: 'user',
    method: 'POST',
    path: '/api/v1.0/account',
    headers: OptionalAccountHeaders,
    body: CreateAccountBody,
    response: AccountSummary,
  }),
  /** The wizard's finish step (spec A §4): the body names the draft, or ebs-account-id does. */
  finishCreate: endpoint({
    ...accountCall,
    access: 'account',
    method: 'POST',
    path: '/api/v1.0/account/finishCreateAccountProcess',
    headers: OptionalAccountHeaders,
    body: FinishCreateAccountBody,
    response: AccountSummary,
  }),
  details: endpoint({
    ...accountCall,
    access: 'account',
    method: 'GET',
    path: '/api/v1.0/account/details',
    headers: AccountHeaders,
    response: AccountDetails,
  }),
  /** Whether a feature is turned on for the account. */
  isFeatureEnabled: endpoint({
    ...accountCall,
    access: 'account',
    method: 'GET',
    path: '/api/v1.0/feature/isAccountValidForFeature',
    headers: AccountHeaders,
    query: FeatureQuery,
    response: FeatureResult,
  }),
  rename: endpoint({
    ...settingsCall,
    method: 'POST',
    path: '/api/v1.0/account/updateAccountName',
    body: UpdateAccountNameBody,
    response: AccountSummary,
  }),
  signingSecret: endpoint({
    ...settingsCall,
    method: 'GET',
    path: '/api/v1.0/account/signing-secret',
    response: SigningSecret,
  }),
  rotateSigningSecret: endpoint({
    ...settingsCall,
    method: 'POST',
    path: '/api/v1.0/account/signing-secret/rotate',
    response: RotatedSigningSecret,
  }),
  addUser: endpoint({
    ...settingsCall,
    method: 'POST',
    path: '/api/v1.0/account/user',
    body: AddUserBody,
    response: AddUserResult,
  }),
  removeUser: endpoint({
    ...settingsCall,
    method: 'DELETE',
    path: '/api/v1.0/account/:userId',
    params: RemoveUserParams,
    response: Empty,
  }),

  /** The account's alerts and who besides the owner is e-mailed. */
  alerts: endpoint({
    ...settingsCall,
    method: 'GET',
    path: '/api/v1.0/account/alerts',
    response: AlertSettings,
  }),
  /** Saves them (the owner only). */
  updateAlerts: endpoint({
    ...settingsCall,
    method: 'POST',
    path: '/api/v1.0/account/alerts',
    body: AlertSettings,
    response: AlertSettings,
  }),
  /** The alerts that hold now (the console's header notice). */
  activeAlerts: endpoint({
    ...settingsCall,
    method: 'GET',
    path: '/api/v1.0/account/alerts/active',
    response: ActiveAlertList,
  }),
};
