import {
  CHANGE_AREAS,
  type ChangeArea,
  checkExtension,
  diffModels,
  type Issue,
  type LoadResult,
  type Model,
  type ModelChange,
} from '@ninefold/model';
import { migrationBetween } from '@ninefold/server';
import { readExtensionModule } from '@ninefold/web/extension-module';
import { parseCommandArgs } from '../args';
import { nameLocator } from '../extension-check';
import { extensionFile } from '../extension-file';
import { loadAnySpec } from '../load-any-spec';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import { paint, type Terminal } from '../terminal';

export const DIFF_HELP = `Usage: ninefold diff OLD NEW [options]

Says what a change of specification does: the screens, entities and fields, constraints, states and
transitions, roles and permissions, calls, error catalogue entries and constants added, removed or
changed; what the prototype API's database must do, and whether serve would refuse it as destructive;
and which overrides, slots or actions of the extension module the change orphans.

Options:
  --format text|json  text for people (default); json prints one JSON object and nothing else, for CI
  --ui FILE           the extension module to hold against both (default: NEW's name with .ui.tsx, or
                      ui/index.tsx, beside NEW)
  --root DIR          an OpenAPI document's $refs may read files in DIR only (default: its own folder)
  -h, --help          show this help

Exit codes: 0 the difference was reported, 1 OLD or NEW has errors, 2 a file could not be read or the
command was used wrongly.
`;

const AREA_TITLES: Record<ChangeArea, string> = {
  point: 'Points',
  screen: 'Screens',
  entity: 'Entities',
  field: 'Fields',
  constraint: 'Constraints',
  state: 'States',
  transition: 'Transitions',
  role: 'Roles',
  permission: 'Permissions',
  call: 'Calls',
  error: 'Error catalogue',
  constant: 'Constants',
};

/** `ninefold diff OLD NEW`. */
export async function diff(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseDiffArgs>;
  try {
    parsed = parseDiffArgs(args);
  } catch (error) {
    terminal.err(`ninefold diff: ${(error as Error).message}\n\n${DIFF_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(DIFF_HELP);
    return 0;
  }
  const format = parsed.values.format;
  if (format !== 'text' && format !== 'json') {
    terminal.err(`ninefold diff: --format must be text or json, not "${format}".\n`);
    return 2;
  }
  const [oldFile, newFile, ...extra] = parsed.positionals;
  if (oldFile === undefined || newFile === undefined || extra.length > 0) {
    terminal.err(`ninefold diff: give exactly two specifications, OLD and NEW.\n\n${DIFF_HELP}`);
    return 2;
  }
  const loaded: LoadResult[] = [];
  for (const file of [oldFile, newFile]) {
    const read = await readSpecFile(file);
    if (!read.ok) {
      terminal.err(`ninefold diff: ${read.message}\n`);
      return 2;
    }
    const result = loadAnySpec(read.text, file, { root: parsed.values.root });
    if (!result.ok || !result.model) {
      terminal.err(`ninefold diff: ${file} has errors; fix them first (ninefold check ${file}):\n`);
      printReport(result, file, { ...terminal, out: terminal.err });
      return 1;
    }
    loaded.push(result);
  }
  const [before, after] = loaded.map((result) => result.model as Model) as [Model, Model];
  const ui = await extensionFile(newFile, parsed.values.ui);
  if (!ui.ok) {
    terminal.err(`ninefold diff: ${ui.message}\n`);
    return 2;
  }

  const changes = diffModels(before, after);
  const migration = migrationBetween(before, after);
  const orphans = await orphaned(before, after, ui.file);
  if (orphans.kind === 'failed') {
    terminal.err(`ninefold diff: the extension module could not be loaded: ${orphans.message}\n`);
    return 1;
  }

  if (format === 'json') {
    terminal.out(
      `${JSON.stringify({
        changes,
        migration: {
          steps: migration.steps,
          destructive: migration.destructive,
          refusedWithoutAllowDestructive: migration.destructive.length > 0,
        },
        extension:
          orphans.kind === 'none'
            ? null
            : {
                file: ui.file,
                orphaned: orphans.issues.map((issue) => ({
                  code: issue.code,
                  message: issue.message,
                  file: issue.source?.file ?? null,
                  line: issue.source?.line ?? null,
                  column: issue.source?.column ?? null,
                })),
              },
      })}\n`,
    );
    return 0;
  }
  printChanges(terminal, oldFile, newFile, changes);
  printMigration(terminal, migration);
  if (orphans.kind === 'checked') printOrphans(terminal, ui.file ?? '', orphans.issues);
  // Said, not left out in silence: a module kept elsewhere is held against the change only when named.
  if (ui.file === undefined) {
    terminal.out(
      `\nNo extension module beside ${newFile} (its name with .ui.tsx, or ui/index.tsx): --ui FILE holds one against the change.\n`,
    );
  }
  return 0;
}

type Orphans = { kind: 'none' } | { kind: 'checked'; issues: Issue[] } | { kind: 'failed'; message: string };

/**
 * What the change breaks in the extension module: the issues of `check` it has with NEW and did not have
 * with OLD. Without a module, the widgets NEW names that no extension provides and OLD's did not.
 */
async function orphaned(before: Model, after: Model, extension: string | undefined): Promise<Orphans> {
  if (extension === undefined) {
    const was = new Set(checkExtension(before, undefined).map((issue) => issue.message));
    const issues = checkExtension(after, undefined).filter((issue) => !was.has(issue.message));
    return issues.length === 0 ? { kind: 'none' } : { kind: 'checked', issues };
  }
  const read = await readExtensionModule(extension);
  if (!read.ok) return { kind: 'failed', message: read.problem.message };
  const options = await nameLocator(read.files);
  const was = new Set(checkExtension(before, read.names).map((issue) => issue.message));
  const issues = checkExtension(after, read.names, options).filter((issue) => !was.has(issue.message));
  return { kind: 'checked', issues };
}

function printChanges(terminal: Terminal, oldFile: string, newFile: string, changes: ModelChange[]): void {
  terminal.out(`${paint(terminal, 'bold', `${oldFile} → ${newFile}`)}\n`);
  if (changes.length === 0) {
    terminal.out('\nThe two specifications say the same.\n');
    return;
  }
  const marks = { added: '+', removed: '-', changed: '~' } as const;
  for (const area of CHANGE_AREAS) {
    const here = changes.filter((change) => change.area === area);
    if (here.length === 0) continue;
    terminal.out(`\n${paint(terminal, 'bold', AREA_TITLES[area])}\n`);
    for (const change of here) {
      const color = change.change === 'added' ? 'green' : change.change === 'removed' ? 'red' : 'yellow';
      const detail = change.detail ? `: ${change.detail}` : '';
      terminal.out(`  ${paint(terminal, color, marks[change.change])} ${change.name}${detail}\n`);
    }
  }
}

function printMigration(terminal: Terminal, migration: ReturnType<typeof migrationBetween>): void {
  terminal.out(`\n${paint(terminal, 'bold', "The prototype API's database")}\n`);
  if (migration.steps.length === 0) {
    terminal.out('  nothing to change\n');
    return;
  }
  for (const step of migration.steps) {
    const mark = step.destructive ? paint(terminal, 'red', '!') : ' ';
    terminal.out(`  ${mark} ${step.description}\n`);
  }
  terminal.out(
    migration.destructive.length > 0
      ? `  serve refuses ${migration.destructive.length === 1 ? 'this step (marked !)' : `these ${migration.destructive.length} steps (marked !)`}: it loses stored data; --allow-destructive applies it\n`
      : '  serve applies this on its next start: nothing stored is lost\n',
  );
}

function printOrphans(terminal: Terminal, file: string, issues: Issue[]): void {
  terminal.out(`\n${paint(terminal, 'bold', `The extension module${file ? ` (${file})` : ''}`)}\n`);
  if (issues.length === 0) {
    terminal.out('  nothing it names is gone\n');
    return;
  }
  for (const issue of issues) {
    const where = issue.source ? `${issue.source.file}:${issue.source.line}:${issue.source.column}  ` : '';
    terminal.out(`  ${where}${issue.message}\n`);
  }
}

function parseDiffArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string', default: 'text' },
      ui: { type: 'string' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
