import { Secret, TOTP } from 'otpauth';
import type { Client } from './client.ts';

const STEP_MS = 30_000;

/** The authenticator app's code for `secret` at a moment (now unless told), as a phone computes it. */
export const totpCode = (secret: string, at = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

/** The code of one 30-second step (a step is the number of 30 seconds since 1970). */
export const codeOfStep = (secret: string, step: number) => totpCode(secret, step * STEP_MS + 1);

export const currentStep = () => Math.floor(Date.now() / STEP_MS);

/** A 6-digit code that no step near now has: certainly wrong. */
export function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((d) => codeOfStep(secret, currentStep() + d)));
  return ['000000', '111111', '222222', '333333', '444444', '555555'].find((c) => !near.has(c)) as string;
}

/** Turns two-factor sign-in on for the client's signed-in user; the secret and the recovery codes. */
export async function turnOnTwoFactor(c: Client): Promise<{ secret: string; uri: string; recoveryCodes: string[] }> {
  const setup = await c.post<{ secret: string; uri: string }>('/auth/mfa/setup');
  if (setup.status !== 200) throw new Error(`setup failed: ${setup.body.message}`);
  const { secret, uri } = setup.body.data;
  const enabled = await c.post<{ recoveryCodes: string[] }>('/auth/mfa/enable', { code: totpCode(secret) });
  if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.body.message}`);
  return { secret, uri, recoveryCodes: enabled.body.data.recoveryCodes };
}
