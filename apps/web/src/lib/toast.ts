import { message } from 'antd';
import { errorText } from './error-text';

type MessageApi = ReturnType<typeof message.useMessage>[0];

// One key for every toast: a new one replaces the one on screen (spec B §8).
const KEY = 'toast';

let messageApi: Pick<MessageApi, 'open'> = message;

/**
 * Lets the provider hand over a context-aware message instance (theme tokens apply to it); answers
 * the undoing, for when the provider unmounts (toasts then go to antd's static instance again).
 */
export function bindToast(api: MessageApi) {
  messageApi = api;
  return () => {
    if (messageApi === api) messageApi = message;
  };
}

export { errorText };

export const toast = {
  success: (text: string) => messageApi.open({ key: KEY, type: 'success', content: text }),
  info: (text: string) => messageApi.open({ key: KEY, type: 'info', content: text }),
  error: (error: unknown) => messageApi.open({ key: KEY, type: 'error', content: errorText(error) }),
};
