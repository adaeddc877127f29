import { describe, expect, it } from 'vitest';
import * as extensionApi from '../src/extension/public';
import * as readingStub from '../src/extension/reading-stub';

describe('the extension API as check reads a module', () => {
  it('exports every name the real one does, and no other, so that a module reads the same against both', () => {
    expect(Object.keys(readingStub).sort()).toEqual(Object.keys(extensionApi).sort());
  });

  it('gives the module its own extension back, as the real one does', () => {
    const extension = { name: 'Tool Library', slots: {} };
    expect(readingStub.defineExtension(extension)).toBe(extension);
    expect(extensionApi.defineExtension(extension)).toBe(extension);
  });
});
