import type { Locator } from 'playwright-core';

/** A small PNG, for a required file input. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Fills a form's required inputs with values a person would type for their types and bounds (the
 * input's own `min`, `max`, `minlength` and `maxlength`), as any user of the form would: an email where
 * an email is asked, the first choice of a select, a file where a file is required.
 */
export async function fillForm(form: Locator): Promise<void> {
  // A required list starts empty: a person adds one item and fills it in.
  for (const group of await form.locator('fieldset[data-nf-field]').all()) {
    const legend = (await group.locator('legend').first().textContent()) ?? '';
    if (!legend.trim().endsWith('*')) continue;
    const add = group.getByRole('button', { name: /^Add / }).last();
    if ((await add.count()) === 0) continue;
    await add.click();
    for (const input of await group.locator('input:not([type=hidden]), textarea, select').all()) {
      if (!(await input.isVisible().catch(() => false)) || (await input.inputValue().catch(() => 'x')) !== '')
        continue;
      const tag = await input.evaluate('(element) => element.tagName');
      if (tag === 'SELECT') await selectFirst(input);
      else await fillInput(input, (await input.getAttribute('type')) ?? 'text');
    }
  }
  for (const select of await form.locator('select[required], select[aria-required=true]').all())
    await selectFirst(select);
  const inputs = form.locator(
    'input[required], textarea[required], input[aria-required=true], textarea[aria-required=true]',
  );
  for (const input of await inputs.all()) {
    const type = (await input.getAttribute('type')) ?? 'text';
    if (type !== 'file' && !(await input.isVisible().catch(() => false))) continue;
    await fillInput(input, type);
  }
}

async function selectFirst(select: Locator): Promise<void> {
  const values = await Promise.all(
    (await select.locator('option').all()).map((option) => option.getAttribute('value')),
  );
  const first = values.find((value) => value !== null && value !== '');
  if (first) await select.selectOption(first);
}

async function fillInput(input: Locator, type: string): Promise<void> {
  switch (type) {
    case 'checkbox':
      await input.check();
      return;
    case 'file':
      await input.setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PIXEL });
      return;
    case 'number': {
      const min = Number((await input.getAttribute('min')) ?? Number.NaN);
      const max = Number((await input.getAttribute('max')) ?? Number.NaN);
      const value = Number.isFinite(min) ? min : Number.isFinite(max) ? Math.min(max, 1) : 1;
      await input.fill(String(value));
      return;
    }
    case 'email':
      await input.fill('ada@example.com');
      return;
    case 'url':
      await input.fill('https://example.com/');
      return;
    case 'tel':
      await input.fill('+441234567890');
      return;
    case 'date':
      await input.fill('2024-01-31');
      return;
    case 'datetime-local':
      await input.fill('2024-01-31T10:00');
      return;
    default: {
      const min = Number((await input.getAttribute('minlength')) ?? 0);
      const max = Number((await input.getAttribute('maxlength')) ?? Number.POSITIVE_INFINITY);
      await input.fill('Example'.padEnd(min, 'x').slice(0, Math.max(1, max)));
    }
  }
}
