import type { Locator, Page } from 'playwright-core';

/**
 * The records a list screen shows, whatever the width: a table's body rows at a desk's, a card each on
 * a phone's (ListCards, below 40em).
 */
export function listRecords(page: Page): Locator {
  return page.locator('.nf-list-table tbody tr, .nf-list-cards > li');
}

/** What holds a list screen's records: the table's body, or the cards' list. */
export function listBody(page: Page): Locator {
  return page.locator('.nf-list-table tbody, .nf-list-cards');
}
