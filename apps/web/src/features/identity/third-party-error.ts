import { Messages, type ThirdPartyErrorCode, ThirdPartyErrorMessages } from '@ebs/contract';

const SILENT_MARK = 'signInUserSession';

/**
 * The login error to show for what a third-party sign-in brought back to /login: the message of a
 * known code, a general failure otherwise. Errors containing signInUserSession are ignored
 * silently (spec B §8): they only say that a session already exists.
 */
export function thirdPartyLoginError(raw: string | null): string | null {
  if (!raw || raw.includes(SILENT_MARK)) return null;
  return Object.hasOwn(ThirdPartyErrorMessages, raw)
    ? ThirdPartyErrorMessages[raw as ThirdPartyErrorCode]
    : Messages.thirdPartyFailed;
}
