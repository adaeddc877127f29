import { useMediaQuery } from '@mantine/hooks';

/**
 * Below this width a list is cards, not a table: at 360 px a table of four columns scrolls inside itself,
 * and the state, the column that matters, is off-screen.
 */
export const PHONE_QUERY = '(max-width: 40em)';

/**
 * Whether lists are shown as cards: the viewport is a phone's. Read at the first render, so no table
 * flashes; apart from the cards, so that a desk never downloads them.
 */
export function usePhoneList(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}
