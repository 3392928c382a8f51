/**
 * The text of an error: its message, or JSON text when that is not a string. Apart from the toast,
 * so displays that show an error in place keep it where page tests stand the toast in.
 */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error) {
    const text = (error as { message: unknown }).message;
    return typeof text === 'string' ? text : JSON.stringify(text);
  }
  return JSON.stringify(error);
}
