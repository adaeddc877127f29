// Writes the published JSON Schema of the YAML/JSON format from the Zod definitions. A test fails when the
// committed file differs from what this writes, so run `npm run schema` after changing document/schema.ts.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { documentJsonSchema } from '../src/document/schema';

export const SCHEMA_PATH = fileURLToPath(new URL('../../../schema/ninefold.schema.json', import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_PATH, `${JSON.stringify(documentJsonSchema(), null, 2)}\n`);
  console.log(`wrote ${SCHEMA_PATH}`);
}
