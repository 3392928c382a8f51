import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface PlainTab<K extends string> {
  key: K;
  label: string;
  children: ReactNode;
}

/**
 * A line of tabs drawn as antd's line tabs are (styles.css, `.plain-tabs`), for a page that must
 * load light: antd's Tabs bring their overflow menu, dropdown and tooltip code (about 40 kB of
 * gzipped JavaScript on /login). The WAI-ARIA tabs pattern: one tab stop, arrows, Home and End move
 * between tabs and select them; only the active panel is rendered.
 */
export function PlainTabs<K extends string>({
  tabs,
  active,
  onChange,
}: {
  tabs: PlainTab<K>[];
  active: K;
  onChange: (key: K) => void;
}) {
  const id = useId();
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const current = tabs.find((tab) => tab.key === active) ?? tabs[0];

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const to =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const tab = to === null ? undefined : tabs[to];
    if (to === null || !tab) return;
    event.preventDefault();
    onChange(tab.key);
    buttons.current[to]?.focus();
  };

  return (
    <div className="plain-tabs">
      <div className="plain-tabs-nav" role="tablist">
        {tabs.map((tab, index) => {
          const selected = tab.key === current?.key;
          return (
            <button
              key={tab.key}
              ref={(button) => {
                buttons.current[index] = button;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.key}`}
              aria-selected={selected}
              aria-controls={`${id}-panel-${tab.key}`}
              tabIndex={selected ? 0 : -1}
              className={selected ? 'plain-tab plain-tab-active' : 'plain-tab'}
              onClick={() => onChange(tab.key)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {current && (
        <div role="tabpanel" id={`${id}-panel-${current.key}`} aria-labelledby={`${id}-tab-${current.key}`}>
          {current.children}
        </div>
      )}
    </div>
  );
}
