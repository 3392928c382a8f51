import { message } from 'antd';
import { useEffect } from 'react';
import { bindToast } from '../lib/toast';

/** Renders toasts inside the theme context and binds the toast helper to them. */
export function ToastHost() {
  const [api, holder] = message.useMessage({ maxCount: 1 });
  useEffect(() => bindToast(api), [api]);
  return holder;
}
