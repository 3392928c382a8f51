import { Type } from '@sinclair/typebox';

export const ACCOUNT_HEADER = 'ebs-account-id';

/** Account-scoped calls name the current account in `ebs-account-id`. */
export const AccountHeaders = Type.Object({ [ACCOUNT_HEADER]: Type.String({ format: 'uuid' }) });

/** Public configuration the web app reads at start-up (never a secret). */
export const PublicConfig = Type.Object({
  appEnv: Type.String(),
  docsUrl: Type.String(),
  apiBase: Type.String(),
  productName: Type.String(),
});
export type PublicConfig = import('@sinclair/typebox').Static<typeof PublicConfig>;
