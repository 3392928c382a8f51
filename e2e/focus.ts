import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Where antd draws the focus of a control: on the wrapper of an input with a suffix, of a number
 * input, of a select, and on the menu entry whose link has the focus. Anything else draws its own.
 */
const RING_HOLDERS = '.ant-input-affix-wrapper, .ant-input-number, .ant-select-selector, .ant-menu-item';

/** The box shadows of the control before it is focused, kept in the page (see tabTo). */
type Unfocused = WeakMap<Element, string>;

/** A short description of the focused element, for the failure message of tabTo. */
const describeFocused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '(page)';
    const role = el.getAttribute('role') ?? el.tagName.toLowerCase();
    const name = el.getAttribute('aria-label') ?? el.getAttribute('title') ?? el.textContent ?? '';
    return `${role} "${name.trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
  });

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/**
 * Presses Tab (Shift+Tab when `backwards`) until `target` has the focus; fails with what was
 * passed on the way when it is not reached in `max` presses. The target's look before it is
 * focused is kept, for expectVisibleFocus to compare.
 */
export async function tabTo(page: Page, target: Locator, { max = 25, backwards = false } = {}) {
  await target.waitFor({ state: 'attached' });
  await target.evaluate((el, holders) => {
    if (el === document.activeElement) return;
    const w = window as unknown as { unfocusedShadow?: Unfocused };
    w.unfocusedShadow ??= new WeakMap();
    w.unfocusedShadow.set(el, getComputedStyle(el.closest(holders) ?? el).boxShadow);
  }, RING_HOLDERS);
  const passed: string[] = [];
  for (let i = 0; i < max && !(await isFocused(target)); i++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    passed.push(await describeFocused(page));
  }
  if (!(await isFocused(target))) {
    throw new Error(`${target} was not reached in ${max} presses; focus went to: ${passed.join(' → ')}`);
  }
}

/**
 * Expects `target` to have the keyboard focus, shown: it matches :focus-visible and it (or the
 * antd wrapper that draws its focus) has an outline, or a box shadow it did not have unfocused.
 * Polled, as antd eases its focus shadow in.
 */
export async function expectVisibleFocus(target: Locator) {
  await expect(target).toBeFocused();
  await expect
    .poll(() =>
      target.evaluate((el, holders) => {
        if (!el.matches(':focus-visible')) return 'not :focus-visible';
        const holder = el.closest(holders) ?? el;
        for (const shown of new Set([el, holder])) {
          const style = getComputedStyle(shown);
          if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) return 'visible';
        }
        const shadow = getComputedStyle(holder).boxShadow;
        const unfocused = (window as unknown as { unfocusedShadow?: Unfocused }).unfocusedShadow?.get(el);
        if (unfocused === undefined) return `no outline, box-shadow ${shadow} (its unfocused look was not measured)`;
        // A shadow that changed but is still fading in has zero lengths or a transparent colour.
        const drawn = shadow !== 'none' && /[1-9]/.test(shadow.replace(/rgba?\([^)]*\)/g, ''));
        return drawn && shadow !== unfocused ? 'visible' : `no outline, box-shadow ${shadow} (unfocused ${unfocused})`;
      }, RING_HOLDERS),
    )
    .toBe('visible');
}
