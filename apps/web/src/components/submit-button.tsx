import { LoadingOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';

interface SubmitButtonProps {
  pending: boolean;
  block?: boolean;
  children: ReactNode;
}

/**
 * A form's primary submit button, disabled and spinning while the call runs. Not antd's `loading`:
 * on a fast answer its spinner can stay in the DOM and turn the button's accessible name into
 * "loading …"; this spinner is hidden from assistive technology, which hears `aria-busy` instead.
 */
export function SubmitButton({ pending, block = true, children }: SubmitButtonProps) {
  return (
    <Button
      type="primary"
      htmlType="submit"
      block={block}
      disabled={pending}
      aria-busy={pending}
      icon={pending ? <LoadingOutlined aria-hidden="true" /> : undefined}
    >
      {children}
    </Button>
  );
}
