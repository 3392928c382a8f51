import { CopyOutlined } from '@ant-design/icons';
import { Messages } from '@ebs/contract';
import { Button } from 'antd';
import { Texts } from '../lib/texts';
import { toast } from '../lib/toast';

interface CopyButtonProps {
  text: string;
  size?: 'small' | 'middle' | 'large';
  /** The accessible name, when the page has other copy buttons: e.g. "Copy ID". */
  label?: string;
}

/** Copies `text` to the clipboard and says so in a toast (spec A §8, spec B §2). */
export function CopyButton({ text, size, label = Texts.copy }: CopyButtonProps) {
  const copy = async () => {
    try {
      // Outside a secure context `navigator.clipboard` is missing: that throws here as a refusal too.
      await navigator.clipboard.writeText(text);
      toast.success(Messages.copied);
    } catch {
      toast.error(Messages.copyFailed);
    }
  };
  return <Button aria-label={label} title={label} icon={<CopyOutlined />} size={size} onClick={copy} />;
}
