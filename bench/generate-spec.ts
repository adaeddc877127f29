/**
 * A large, valid specification for benchmarks and size tests: `entities` entities of `fields` fields each,
 * with a list and a detail screen per entity, constraints on every fifth field and a CEL rule per entity.
 */
export function generateSpecYaml(entities: number, fields: number): string {
  const kinds = ['text', 'integer', 'number', 'boolean', 'date', 'datetime', 'markdown', 'money'];
  const lines: string[] = ['title: Generated', 'product:', '  summary: A generated specification.'];
  lines.push('screens:');
  for (let e = 0; e < entities; e++) {
    lines.push(`  list${e}:`, '    kind: list', `    route: /entity${e}`, `    entity: Entity${e}`);
    lines.push(
      '    columns: [field0, field1, field2]',
      '    sort: [field0, -field1]',
      '    pageSize: PAGE_SIZE',
    );
    lines.push(`  detail${e}:`, '    kind: detail', `    route: /entity${e}/:id`, `    entity: Entity${e}`);
  }
  lines.push('entities:');
  for (let e = 0; e < entities; e++) {
    lines.push(
      `  Entity${e}:`,
      `    label: Entity ${e}`,
      '    key: id',
      '    display: field0',
      '    fields:',
    );
    lines.push('      id: { kind: integer, readOnly: true }');
    for (let f = 0; f < fields - 1; f++) {
      const kind = kinds[f % kinds.length];
      const extra = f === 0 ? ', label: Name' : f % 7 === 3 ? `, help: Field ${f} of entity ${e}.` : '';
      lines.push(`      field${f}: { kind: ${kind}${extra} }`);
    }
  }
  lines.push('states: not shown');
  lines.push('validation:', '  fields:');
  for (let e = 0; e < entities; e++) {
    for (let f = 0; f < fields - 1; f += 5) {
      const kind = kinds[f % kinds.length];
      const bound =
        kind === 'text' ? ', max: MAX_TEXT' : kind === 'integer' || kind === 'number' ? ', min: 0' : '';
      lines.push(`    Entity${e}.field${f}: { required: true${bound} }`);
    }
  }
  lines.push('  rules:');
  for (let e = 0; e < entities; e++) {
    lines.push(
      `    - entity: Entity${e}`,
      '      check: record.field1 >= 0',
      '      message: Field 1 cannot be negative.',
    );
  }
  lines.push('roles: not shown', 'calls: not shown', 'errors: not shown');
  lines.push('constants:', '  PAGE_SIZE: 25', '  MAX_TEXT: { value: 200, unit: characters }');
  return `${lines.join('\n')}\n`;
}
