/**
 * antd writes its rules into <style> elements as components first render. jsdom matches every one
 * of those rules against an element each time something asks for its computed style (antd's text
 * areas and tables do while measuring, and role queries do for visibility), which made one page
 * render take seconds. Page tests check roles, text, classes and inline styles, so the setup leaves
 * antd's <style> elements out of the document; a test of a colour antd's rules give keeps them.
 */
// Kept on the window, not in this module: test files that share a window (vitest.config.ts) each
// load this module afresh, and the window's head is patched once.
const KEPT = Symbol.for('antd-styles-kept');
const PATCHED = Symbol.for('antd-styles-left-out');
const flags = globalThis as { [KEPT]?: boolean; [PATCHED]?: boolean };

/** For a test file that checks what antd's stylesheet does (a colour, a width): call at its top. */
export function keepAntdStyles() {
  flags[KEPT] = true;
}

const isAntdStyle = (node: Node) =>
  !flags[KEPT] && node instanceof HTMLStyleElement && node.hasAttribute('data-rc-order');

/** Called by the setup of every web test file: antd's rules are left out unless that file keeps them. */
export function leaveOutAntdStyles() {
  flags[KEPT] = false;
  if (flags[PATCHED]) return;
  flags[PATCHED] = true;
  const head = document.head;
  const append = head.appendChild.bind(head);
  const insertBefore = head.insertBefore.bind(head);
  const removeChild = head.removeChild.bind(head);
  head.appendChild = <T extends Node>(node: T): T => (isAntdStyle(node) ? node : append(node));
  head.insertBefore = <T extends Node>(node: T, child: Node | null): T =>
    isAntdStyle(node) ? node : insertBefore(node, child);
  head.removeChild = <T extends Node>(node: T): T =>
    isAntdStyle(node) && !node.isConnected ? node : removeChild(node);
}
