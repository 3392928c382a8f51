import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { KeySecurityTexts as T } from './key-security-texts';

interface ExpiryFieldProps {
  id?: string;
  /** The instant after which the key is refused; null: never. */
  value?: string | null;
  onChange?: (expiresAt: string | null) => void;
}

const DAY = 'YYYY-MM-DD';

/** The UTC day an instant falls on, YYYY-MM-DD. */
const utcDay = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** The last instant of a UTC day. */
export const endOfUtcDay = (day: string) => `${day}T23:59:59.999Z`;

/** An instant as YYYY-MM-DD HH:mm:ss, in UTC. */
export const utcText = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace('T', ' ');

/**
 * A date without a time, meaning the end of that day in UTC: the same day for every member of an
 * account, wherever they are. Clearing it makes the key never expire.
 */
export function ExpiryField({ id, value, onChange }: ExpiryFieldProps) {
  const today = new Date().toISOString().slice(0, 10);
  const [open, setOpen] = useState(false);
  return (
    <DatePicker
      id={id}
      format={DAY}
      placeholder={T.neverExpires}
      value={value ? dayjs(utcDay(value), DAY) : null}
      disabledDate={(day) => day.format(DAY) < today}
      onChange={(day) => onChange?.(day ? endOfUtcDay(day.format(DAY)) : null)}
      allowClear
      onOpenChange={setOpen}
      onKeyDown={(event) => {
        // Escape closes the open calendar only: unstopped, it would close the drawer around the form too.
        if (open && event.key === 'Escape') event.stopPropagation();
      }}
    />
  );
}
