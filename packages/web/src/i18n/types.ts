import type { english } from './catalogue';

/** The areas of the message catalogue; each has one file per language. */
export type Area = keyof typeof english;

/** Another language's messages for an area: exactly the English keys, so none can be forgotten. */
export type Messages<A extends Area> = { readonly [K in keyof (typeof english)[A]]: string };

/** `shell.notFoundTitle`: an area and a key in it. */
export type MessageKey = {
  [A in Area]: `${A}.${keyof (typeof english)[A] & string}`;
}[Area];

/** Keys with `_one`/`_other` variants, named without the suffix, for counted messages. */
export type PluralKey = MessageKey extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;

export type Catalogue = { readonly [A in Area]: Messages<A> };
