// A role's own home (point 6): a skipper of the boat hire lands on the bookings, not on the product's
// home, the desk's list of skippers, which the role may not open (issue 42: "Not allowed" right after
// signing in).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSpec, type Model } from '@ninefold/model';
import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { pageAt } from '../src/app/App';

function boatHire(): Model {
  const file = resolve(import.meta.dirname, 'fixtures/boat-hire.md');
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

/** Where the page at an address sends the person, for a page that is a redirect. */
function redirectOf(page: unknown): string | undefined {
  if (!isValidElement(page)) return undefined;
  return (page as ReactElement<{ to?: unknown }>).props.to as string | undefined;
}

describe('the page at /', () => {
  const model = boatHire();

  it('sends a role with a home of its own there', () => {
    expect(redirectOf(pageAt(model, '/', 'skipper'))).toBe('/bookings');
  });

  it('sends every other role, and nobody signed in, to the product’s home', () => {
    expect(redirectOf(pageAt(model, '/', 'desk'))).toBe('/skippers');
    expect(redirectOf(pageAt(model, '/'))).toBe('/skippers');
  });
});
