import { RESEND_COUNTDOWN_SECONDS } from '@ebs/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useCountdown } from './use-countdown';

interface ResendCodeLinkProps {
  onResend: () => Promise<unknown>;
  /** Grey with " in Ns" until the 60 s countdown ends (spec B §4). */
  withCountdown?: boolean;
}

export function ResendCodeLink({ onResend, withCountdown = false }: ResendCodeLinkProps) {
  const { left, restart } = useCountdown(withCountdown ? RESEND_COUNTDOWN_SECONDS : 0);
  const [sending, setSending] = useState(false);
  const waiting = left > 0;

  const resend = async () => {
    if (waiting) return;
    setSending(true);
    restart();
    try {
      await onResend();
    } catch (error) {
      toast.error(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Button type="link" disabled={waiting || sending} onClick={resend}>
      {Texts.resendCode}
      {waiting ? Texts.resendIn(left) : ''}
    </Button>
  );
}
