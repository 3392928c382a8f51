import { randomBytes } from 'node:crypto';
import { seal } from '../../secrets.ts';

/** An account's webhook signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A new signing secret sealed with the data key for storage: the database never holds it in clear. */
export const newSealedSigningSecret = (dataKey: Buffer) => seal(dataKey, newSigningSecret());
