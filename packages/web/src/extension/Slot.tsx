import type { ComponentType, ReactNode } from 'react';
import { useExtension } from './ExtensionContext';
import { isComponent } from './is-component';
import { OverrideBoundary, useOriginal } from './OverrideBoundary';
import type { SlotBase, Slots } from './types';

type KeyedSlot = {
  [S in keyof Slots]-?: NonNullable<Slots[S]> extends Record<string, unknown> ? S : never;
}[keyof Slots];
type PlainSlot = Exclude<keyof Slots, KeyedSlot>;
type PropsOf<S extends keyof Slots> =
  NonNullable<Slots[S]> extends ComponentType<infer P>
    ? P
    : NonNullable<Slots[S]> extends Partial<Record<string, ComponentType<infer P>>>
      ? P
      : never;

export interface SlotProps<S extends keyof Slots> {
  name: S;
  /** The entity (or dashboard) a keyed slot is for; none for the header's and navigation's slots. */
  slotKey?: S extends KeyedSlot ? string : undefined;
  /** What the page shows there without an extension (may be nothing). */
  children?: ReactNode;
  /** The slot's props, without `Original`. */
  props: Omit<PropsOf<S>, 'Original'>;
}

/**
 * A place where an extension adds or replaces content (docs/extending.md): the built-in content, or
 * the extension's component given that content as `Original`, caught by its own boundary.
 */
export function Slot<S extends keyof Slots>({ name, slotKey, children, props }: SlotProps<S>) {
  // A client built without an extension has nothing to put in a slot: its first load carries none of this.
  return __NINEFOLD_EXTENSION__ ? (
    <ExtensionSlot name={name} slotKey={slotKey} props={props}>
      {children}
    </ExtensionSlot>
  ) : (
    (children ?? null)
  );
}

function ExtensionSlot<S extends keyof Slots>({ name, slotKey, children, props }: SlotProps<S>) {
  const Component = slotComponent(useExtension().slots, name, slotKey);
  if (!Component) return <>{children}</>;
  return (
    <FilledSlot
      Component={Component as ComponentType<SlotBase>}
      what={slotKey === undefined ? `${name} slot` : `${name} slot of ${slotKey}`}
      props={props}
    >
      {children}
    </FilledSlot>
  );
}

/** Whether the extension fills a slot, for a page that lays itself out differently when it does. */
export function useSlotFilled(name: keyof Slots, slotKey?: string): boolean {
  const slots = useExtension().slots;
  return __NINEFOLD_EXTENSION__ && slotComponent(slots, name, slotKey) !== undefined;
}

function FilledSlot({
  Component,
  what,
  props,
  children,
}: {
  Component: ComponentType<SlotBase>;
  what: string;
  props: object;
  children: ReactNode;
}) {
  const Original = useOriginal(children ?? null);
  return (
    <OverrideBoundary what={what} fallback={children}>
      <Component {...props} Original={Original} />
    </OverrideBoundary>
  );
}

/** The extension's component for a slot (and, for a keyed slot, its key), if it gives one. */
export function slotComponent(
  slots: Slots | undefined,
  name: keyof Slots,
  key: string | undefined,
): ComponentType<never> | undefined {
  if (!slots || !Object.hasOwn(slots, name)) return undefined;
  const value = slots[name] as unknown;
  if (key === undefined) return isComponent(value) ? value : undefined;
  if (typeof value !== 'object' || value === null || isComponent(value) || !Object.hasOwn(value, key))
    return undefined;
  const component = (value as Record<string, unknown>)[key];
  return isComponent(component) ? component : undefined;
}

export type { KeyedSlot, PlainSlot };
