/** The keys of the page's own shortcuts; `?` opens their help. Ctrl+K is the search's. */
export const SHORTCUT_KEYS = ['?', '/', 'n', 'e'];

/** Where typing is typing: a shortcut never takes a key meant for a box, a menu or a dialog. */
export const TYPING =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"], [role="menu"]';

/**
 * Does what a shortcut key says: the element of the page that declares it with `aria-keyshortcuts` (the
 * list's search box `/`, its New link `n`, a record's Edit `e`) is focused or followed. Declared on the
 * elements, the keys are also told by screen readers. Loaded with the first shortcut pressed.
 */
export function press(key: string): void {
  const found = [...document.querySelectorAll<HTMLElement>('#main [aria-keyshortcuts]')].find(
    (element) =>
      element.getAttribute('aria-keyshortcuts')?.split(' ').includes(key) &&
      element.getClientRects().length > 0,
  );
  if (!found) return;
  if (found.matches('input, textarea, select')) found.focus();
  else found.click();
}
