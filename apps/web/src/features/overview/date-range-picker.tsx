import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { Texts } from '../../lib/texts';
import { DAY_FORMAT, type DayRange, lastDays, PRESET_DAYS } from './overview-dates';

interface Props {
  value: DayRange;
  onChange: (range: DayRange) => void;
  /** The day the presets end on and after which no day can be picked. */
  today: Dayjs;
}

/** spec A §2: a chart's date range, YYYY-MM-DD, with the presets Last 7, 14, 30, 90 and 180 Days. */
export function DateRangePicker({ value, onChange, today }: Props) {
  const presets = useMemo(
    () =>
      PRESET_DAYS.map((days) => ({
        label: Texts.overview.lastDays(days),
        value: [...lastDays(days, today)] as [Dayjs, Dayjs],
      })),
    [today],
  );
  return (
    <DatePicker.RangePicker
      format={DAY_FORMAT}
      value={[value[0], value[1]]}
      presets={presets}
      allowClear={false}
      disabledDate={(day) => day.isAfter(today, 'day')}
      onChange={(range) => {
        if (range?.[0] && range[1]) onChange([range[0].startOf('day'), range[1].startOf('day')]);
      }}
    />
  );
}
