import { Link } from 'react-router-dom';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';
import type { LegendEntry } from './chart-option';

const T = Texts.overview;

interface Props {
  accountId: string;
  entries: readonly LegendEntry[];
  hidden: ReadonlySet<string>;
  onToggle: (name: string) => void;
}

/**
 * The chart's legend, above its canvas: every entry whole, wrapping onto as many lines as it needs.
 * An entry turns its series off and on, as the canvas legend did. A range without usage says so, and
 * how to make a first call (a new account's Overview is empty).
 */
export function ChartLegend({ accountId, entries, hidden, onToggle }: Props) {
  if (entries.length === 0) {
    return (
      <p className="overview-legend-none">
        {T.noUsageInRange} {T.firstCallBefore}
        <Link to={accountPath(accountId, 'rpc')}>{T.firstCallLink}</Link>
        {T.firstCallAfter}
      </p>
    );
  }
  return (
    <ul className="overview-legend" aria-label={Texts.overview.legend}>
      {entries.map(({ name, color }) => {
        const shown = !hidden.has(name);
        return (
          <li key={name}>
            <button type="button" className="overview-legend-entry" aria-pressed={shown} onClick={() => onToggle(name)}>
              <span className="overview-legend-swatch" style={{ background: shown ? color : undefined }} aria-hidden />
              {name}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
