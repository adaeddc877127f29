import { contentSecurityPolicy } from '@ninefold/server';
import { inlineScriptHashes } from '@ninefold/web/module-client';
import { describe, expect, it } from 'vitest';

describe("dev's page served from the client's sources", () => {
  it('allows each inline script by the hash of its exact text, and no script that has a src', () => {
    const html =
      '<head><script type="module">import { injectIntoGlobalHook } from "/@react-refresh";</script>' +
      '<script type="module" src="/@vite/client"></script><script></script></head>';
    // The hash as `openssl dgst -sha256 -binary | base64` gives it for that text.
    expect(inlineScriptHashes(html)).toEqual(['sha256-eWIP4QSgsKwGMakovhlfrWL5cYkHeTQuwdXHr+tfFdc=']);
    const policy = contentSecurityPolicy({ scriptHashes: inlineScriptHashes(html) });
    const scripts = policy.split('; ').find((directive) => directive.startsWith('script-src '));
    expect(scripts).toBe("script-src 'self' 'sha256-eWIP4QSgsKwGMakovhlfrWL5cYkHeTQuwdXHr+tfFdc='");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
  });
});
