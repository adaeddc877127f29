// The specifications the contract's tests run on: every example, and every domain the suite's other
// tests wrote, none of them written for the contract.
import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';

const ROOT = new URL('../../', import.meta.url);
export const SPECS = [
  'examples/shop.md',
  'examples/shop.yaml',
  'examples/helpdesk.md',
  'examples/empty.md',
  'packages/server/test/fixtures/clinic.yaml',
  'packages/server/test/fixtures/garden.yaml',
  'packages/server/test/fixtures/moorings.yaml',
  'packages/server/test/fixtures/seed-bank.yaml',
  'test/fixtures/extension/tool-library.yaml',
  'packages/web/test/fixtures/boat-hire.md',
  'packages/web/test/fixtures/village-hall.md',
  'packages/model/test/fixtures/network-inventory.yaml',
  'test/fixtures/csv/rowing-club.yaml',
  'e2e/fixtures/oidc-shop.yaml',
];

export function loadModel(file: string): Model {
  const result = loadSpec(readFileSync(new URL(file, ROOT), 'utf8'), { file });
  if (!result.model || !result.ok) throw new Error(`${file}: ${JSON.stringify(result.issues.slice(0, 3))}`);
  return result.model;
}
