import type { Locator, Page } from 'playwright-core';

/** The text of the elements that describe an element (aria-describedby): its hints and errors. */
export async function description(page: Page, element: Locator): Promise<string> {
  const ids = (await element.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}
