import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MemoryRouter, useLocation, useNavigate, useSearchParams } from '../src/app/router';

// A list writes its filters into the address a moment after they are typed (a debounce). Sent after the
// person has gone to another page, that write must not take them back to the list.

let setParams: (next: URLSearchParams) => void = () => undefined;
let go: (to: string) => void = () => undefined;

function Probe() {
  const [, set] = useSearchParams();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  setParams = set;
  go = navigate;
  return <output aria-label="address">{`${pathname}${search}`}</output>;
}

function address(): string {
  return screen.getByRole('status', { name: 'address' }).textContent ?? '';
}

describe("a list's search parameters", () => {
  it('are written on the page they were made for', () => {
    render(
      <MemoryRouter entries={['/customers']}>
        <Probe />
      </MemoryRouter>,
    );
    act(() => setParams(new URLSearchParams({ q: 'new' })));
    expect(address()).toBe('/customers?q=new');
  });

  it('are dropped once the person has left that page, instead of taking them back', () => {
    render(
      <MemoryRouter entries={['/customers']}>
        <Probe />
      </MemoryRouter>,
    );
    // The setter the list held before the person pressed New: made for /customers.
    const late = setParams;
    act(() => go('/customers/new'));
    act(() => late(new URLSearchParams({ q: 'new' })));
    expect(address()).toBe('/customers/new');
  });
});
