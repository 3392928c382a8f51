import type { RpcStatusHour } from '@ebs/contract';
import { Tooltip } from 'antd';
import { hourText, hourTone } from './network-status';

interface HourStripProps {
  /** The hours, oldest first. */
  lastDay: readonly RpcStatusHour[];
  /** The strip's accessible name. */
  label: string;
}

/**
 * A network's last 24 hours: one cell per hour, coloured by the share of its calls answered (green,
 * gold, red; grey without calls). Each cell says its hour and share on hover and to screen readers.
 */
export function HourStrip({ lastDay, label }: HourStripProps) {
  return (
    <ol className="hour-strip" aria-label={label}>
      {lastDay.map((hour) => {
        const text = hourText(hour);
        return (
          <li key={hour.hour}>
            <Tooltip title={text}>
              <span role="img" aria-label={text} className={`hour-cell hour-cell-${hourTone(hour.answeredShare)}`} />
            </Tooltip>
          </li>
        );
      })}
    </ol>
  );
}
