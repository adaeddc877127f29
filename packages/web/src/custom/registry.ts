import type { CustomScreen } from '@ninefold/spec';
import type { ComponentType } from 'react';

/**
 * Named components that replace a screen where the specification cannot say enough ("extension, not
 * ejection"). A build registers its own here; the stock runtime has none, and says so on the screen.
 */
export const customScreens: Record<string, ComponentType<{ screen: CustomScreen }>> = {};
