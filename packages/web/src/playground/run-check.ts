import {
  exhaustiveSwitchError,
  loadSpec,
  type Model,
  POINT_KEYS,
  toDocument,
  toMarkdown,
  yamlText,
} from '@ninefold/model';
import { type ImportReport, importOpenApi } from '@ninefold/openapi';
import { MAX_IMPORT_BYTES } from '../import/run-import';
import { type CheckAnswer, type CheckRequest, MAX_REPORTED, type ReportedEntry } from './check-protocol';
import { seedRecords } from './seed-records';

/**
 * The worker's job, apart from the worker: loads and checks a text, or imports an OpenAPI document into
 * nine-point YAML. Never throws: a failure is a `failed` answer that says why.
 */
export async function runCheck(request: CheckRequest): Promise<CheckAnswer> {
  const started = performance.now();
  try {
    switch (request.kind) {
      case 'check': {
        const file = request.format === 'markdown' ? 'spec.md' : 'spec.yaml';
        const result = loadSpec(request.text, { file, format: request.format });
        return {
          kind: 'checked',
          id: request.id,
          ok: result.ok,
          ...(result.model ? { modelJson: JSON.stringify(result.model) } : {}),
          // Only a model the preview will run on needs records.
          ...(result.ok && result.model && needsRecords(result.model, request.held)
            ? { recordsJson: JSON.stringify(seedRecords(result.model)) }
            : {}),
          ...(result.coverage ? { coverage: result.coverage } : {}),
          issues: result.issues,
          millis: Math.round(performance.now() - started),
        };
      }
      case 'import': {
        if (request.file.size > MAX_IMPORT_BYTES) {
          return {
            kind: 'failed',
            id: request.id,
            message: `${request.name} is ${Math.round(request.file.size / 1048576)} MB; the page imports documents of up to ${MAX_IMPORT_BYTES / 1048576} MB.`,
          };
        }
        const text = await request.file.text();
        const result = importOpenApi({ text, file: request.name });
        const counts = result.report?.counts;
        const header = `# Imported from ${request.name}. What the import inferred rather than read is in its report;\n# check those parts before relying on them.\n`;
        return {
          kind: 'imported',
          id: request.id,
          ...(result.model ? { text: header + yamlText(toDocument(result.model)) } : {}),
          file: request.name,
          version: result.version,
          issues: result.issues,
          counts: {
            mapped: counts?.mapped ?? 0,
            inferred: counts?.inferred ?? 0,
            notShown: counts?.['not-shown'] ?? 0,
            skipped: counts?.skipped ?? 0,
          },
          entries: result.report ? reportedEntries(result.report) : [],
          millis: Math.round(performance.now() - started),
        };
      }
      case 'convert': {
        const file = request.format === 'markdown' ? 'spec.md' : 'spec.yaml';
        const result = loadSpec(request.text, { file, format: request.format });
        if (!result.ok || !result.model) {
          return {
            kind: 'failed',
            id: request.id,
            message: 'The text has errors: fix them first, or download it as it is.',
          };
        }
        if (request.to === 'markdown') {
          const markdown = toMarkdown(result.model);
          return { kind: 'converted', id: request.id, text: markdown.text, lost: markdown.lost };
        }
        return {
          kind: 'converted',
          id: request.id,
          text: yamlText(toDocument(result.model)),
          lost: [],
        };
      }
      default:
        return exhaustiveSwitchError(request);
    }
  } catch (error) {
    return {
      kind: 'failed',
      id: request.id,
      message: `checking stopped on an internal error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** Whether the model has a stored entity the page holds no records for. */
function needsRecords(model: Model, held: readonly string[]): boolean {
  const known = new Set(held);
  return (model.entities.shown ? model.entities.items : []).some(
    (entity) => !entity.embedded && !known.has(entity.name),
  );
}

/** The inferred and skipped entries of an import's report, point by point, up to `MAX_REPORTED`. */
function reportedEntries(report: ImportReport): ReportedEntry[] {
  const entries: ReportedEntry[] = [];
  for (const [index, key] of POINT_KEYS.entries()) {
    for (const entry of report.points[key]) {
      if (entries.length >= MAX_REPORTED) return entries;
      if (entry.kind !== 'inferred' && entry.kind !== 'skipped') continue;
      entries.push({ kind: entry.kind, point: index + 1, pointer: entry.pointer, message: entry.message });
    }
  }
  return entries;
}
