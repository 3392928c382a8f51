import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { setUpPageTests } from '../testing/page-test-kit';
import { PlainTabs } from './plain-tabs';

setUpPageTests();

type Key = 'one' | 'two' | 'three';

function Three() {
  const [active, setActive] = useState<Key>('one');
  return (
    <PlainTabs
      active={active}
      onChange={setActive}
      tabs={[
        { key: 'one', label: 'One', children: <p>first panel</p> },
        { key: 'two', label: 'Two', children: <p>second panel</p> },
        { key: 'three', label: 'Three', children: <p>third panel</p> },
      ]}
    />
  );
}

const selected = () => screen.getAllByRole('tab').map((tab) => tab.getAttribute('aria-selected'));

describe('PlainTabs', () => {
  it('shows the selected tab’s panel only, labelled by its tab, with one tab stop', () => {
    render(<Three />);
    expect(selected()).toEqual(['true', 'false', 'false']);
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
    expect(screen.getByRole('tabpanel', { name: 'One' }).textContent).toBe('first panel');
    expect(screen.queryByText('second panel')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Two' }));
    expect(selected()).toEqual(['false', 'true', 'false']);
    expect(screen.getByRole('tabpanel', { name: 'Two' }).textContent).toBe('second panel');
    expect(screen.queryByText('first panel')).toBeNull();
  });

  it('moves and selects with the arrows (wrapping), Home and End, and leaves other keys alone', () => {
    render(<Three />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    fireEvent.keyDown(tab('One'), { key: 'ArrowLeft' });
    expect(selected()).toEqual(['false', 'false', 'true']);
    expect(document.activeElement).toBe(tab('Three'));
    fireEvent.keyDown(tab('Three'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('One'));
    fireEvent.keyDown(tab('One'), { key: 'End' });
    expect(selected()).toEqual(['false', 'false', 'true']);
    fireEvent.keyDown(tab('Three'), { key: 'Home' });
    expect(selected()).toEqual(['true', 'false', 'false']);
    fireEvent.keyDown(tab('One'), { key: 'Enter' });
    expect(selected()).toEqual(['true', 'false', 'false']);
  });
});
