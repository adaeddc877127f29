/// <reference path="../extension/virtual-module.d.ts" />
// The entry of `@ninefold/react` (packages/react): the generated client as a component, and the extension
// API beside it. Everything exported here is covered by the stability promise of docs/extending.md.
import '../app/mantine.css';
import 'virtual:ninefold-theme.css';
import '../app/app.css';
import '../extension/extension.css';
// In a library the later styles are part of the one stylesheet the app imports, not a file to fetch.
import '../app/mantine-later.css';
import { skipLaterStyles } from '../app/later-styles';

skipLaterStyles();

export type { ApiWire, Model } from '@ninefold/model';
export * from '../extension/public';
export type { Locale } from '../i18n/catalogue';
export { NinefoldApp, type NinefoldAppProps } from './NinefoldApp';
