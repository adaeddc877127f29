import type { Page } from 'playwright-core';

/** The seconds a delete waits for Undo before it is sent (the client's DELETE_DELAY_MS), as its notice says them. */
export const UNDO_SECONDS = 5;

/**
 * Confirms the delete in its open dialog and waits for the notice that offers Undo, with the page's clock
 * under the test's hand from then on (Playwright's clock: time still flows as usual until it is moved).
 */
export async function confirmDelete(page: Page): Promise<void> {
  await page.clock.install();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText(`will be deleted in ${UNDO_SECONDS} seconds`).waitFor();
}

/**
 * Lets `seconds` pass at once in the page, firing every timer due by then: the wait for Undo is the
 * page's own timer, so what is sent and whether Undo stopped it are the client's doing, without the test
 * sitting idle through the seconds a person would wait.
 */
export async function passSeconds(page: Page, seconds = UNDO_SECONDS): Promise<void> {
  await page.clock.fastForward(seconds * 1000);
}

/** Confirms the delete and lets the seconds for Undo pass, so that it is sent now. */
export async function deleteNow(page: Page): Promise<void> {
  await confirmDelete(page);
  await passSeconds(page);
}
