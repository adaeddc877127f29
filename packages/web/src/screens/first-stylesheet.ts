import type { ScreenKind } from '@ninefold/model';

/**
 * The kinds of screen that draw with the stylesheet the page loads with. Every other kind waits for the
 * later one (app/later-styles.ts) beside its code, and the server preloads it for a page whose first
 * screen is of such a kind (`FIRST_STYLESHEET_KINDS` in packages/server/src/screen-preload.ts, which a
 * test holds to this set).
 */
export const FIRST_STYLESHEET_KINDS: ReadonlySet<ScreenKind> = new Set<ScreenKind>(['list', 'dashboard']);
