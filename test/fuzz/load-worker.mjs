// A worker of the fuzz pool: loads one input at a time with the real loaders and answers what came out.
// Plain JavaScript that registers tsx, because worker threads start without the test runner's loader.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { loadSpec } = await import('../../packages/model/src/index.ts');
const { importOpenApi } = await import('../../packages/openapi/src/index.ts');

parentPort.on('message', (input) => {
  const started = performance.now();
  let answer;
  try {
    const result =
      input.kind === 'openapi'
        ? importOpenApi({ text: input.text, file: input.file })
        : loadSpec(input.text, { file: input.file });
    answer = {
      id: input.id,
      threw: false,
      ok: result.ok,
      issues: result.issues.map((issue) => ({
        code: issue.code,
        severity: issue.severity,
        line: issue.source?.line,
        message: issue.message,
      })),
    };
  } catch (error) {
    answer = { id: input.id, threw: true, message: error instanceof Error ? error.stack : String(error) };
  }
  answer.ms = performance.now() - started;
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
