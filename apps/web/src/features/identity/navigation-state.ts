/** Navigation state handed between the identity screens, read defensively (it survives reloads). */
export interface CredentialsState {
  email: string;
  password: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function credentialsFrom(state: unknown): CredentialsState | null {
  if (!isRecord(state) || typeof state.email !== 'string' || !state.email) return null;
  return { email: state.email, password: typeof state.password === 'string' ? state.password : '' };
}

export function emailFrom(state: unknown): string | null {
  return isRecord(state) && typeof state.email === 'string' && state.email ? state.email : null;
}

export function noticeFrom(state: unknown): string | null {
  return isRecord(state) && typeof state.notice === 'string' ? state.notice : null;
}
