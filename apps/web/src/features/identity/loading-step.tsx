import { Spin } from 'antd';
import { Texts } from '../../lib/texts';

/** Where a part of the login page that loads on demand (the two-factor step, the sign-up form) will show. */
export function LoadingStep() {
  return (
    <div className="login-step-loading" role="status" aria-label={Texts.loading}>
      <Spin />
    </div>
  );
}
