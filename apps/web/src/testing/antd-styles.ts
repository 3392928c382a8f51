/**
 * antd writes its rules into <style> elements as components first render. jsdom matches every one
 * of those rules against an element each time something asks for its computed style (antd's text
 * areas and tables do while measuring, and role queries do for visibility), which made one page
 * render take seconds. Page tests check roles, text, classes and inline styles, so the setup leaves
 * antd's <style> elements out of the document; a test of a colour antd's rules give keeps them.
 */
let kept = false;

/** For a test file that checks what antd's stylesheet does (a colour, a width): call at its top. */
export function keepAntdStyles() {
  kept = true;
}

const isAntdStyle = (node: Node) => !kept && node instanceof HTMLStyleElement && node.hasAttribute('data-rc-order');

export function leaveOutAntdStyles() {
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
