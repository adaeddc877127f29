import type { Model } from '@ninefold/spec';
import type { ApiDescription } from './api-description';
import type { DataProvider } from './data-provider';

export function createHttpDataProvider(_api: ApiDescription, _model: Model): DataProvider {
  throw new Error('not built yet');
}
