// What `check` says about the parts of a specification that reach beyond one record: numbering, the time
// zone, unique together, changes of other records, and catalogue codes nothing can produce.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Issue, loadSpec, type Model, toMarkdown } from '../src/index';

const shop = readFileSync(new URL('../../../examples/shop.md', import.meta.url), 'utf8');
const helpdesk = readFileSync(new URL('./fixtures/helpdesk.md', import.meta.url), 'utf8');

function issuesOf(text: string): Array<Pick<Issue, 'severity' | 'message'> & { path: string }> {
  return loadSpec(text, { file: 'spec.md' }).issues.map((issue) => ({
    severity: issue.severity,
    message: issue.message,
    path: issue.path.join('.'),
  }));
}

function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the fixture changed: "${from}" is not in it`);
  return text.replace(from, to);
}

describe('check, beyond one record', () => {
  it('warns about a catalogue code that no rule gives and the prototype API never answers', () => {
    const bogus = replaced(shop, '| 422 | CREDIT_LIMIT |', '| 422 | CREDIT_LIMT |');
    expect(issuesOf(bogus)).toContainEqual({
      severity: 'warning',
      path: 'errors.6.code',
      message:
        'Error entry 7 (point 8) matches the code "CREDIT_LIMT", which no rule of point 5 or guard of point 4 gives and the prototype API never answers, so it is never used. Give a rule or a guard this code, or correct it.',
    });
    // Against a server of its own, the API may answer any code.
    const model = loadSpec(bogus, { file: 'spec.md' }).model as Model;
    if (!model.calls.shown) throw new Error('the shop shows its calls');
    model.calls.baseUrl = 'https://api.harbor.test/v1';
    const withServer = toMarkdown(model).text;
    expect(issuesOf(withServer).filter((issue) => issue.path === 'errors.6.code')).toEqual([]);
  });

  it('refuses numbering that would repeat or that the client could write', () => {
    expect(issuesOf(replaced(helpdesk, '`HD-{seq:5}`', '`HD-{year}`'))).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'entities.Ticket.fields.number.numbering' }),
    );
    const writable = replaced(
      helpdesk,
      '| number | text | Ticket number | yes |',
      '| number | text | Ticket number | |',
    );
    expect(
      issuesOf(writable)
        .map((issue) => issue.message)
        .join('\n'),
    ).toMatch(
      /is numbered by the API, so it must be a read-only text field\. Make its kind text and add "Read only: yes"\./,
    );
  });

  it('refuses a time zone the runtime does not know', () => {
    expect(issuesOf(replaced(helpdesk, 'Europe/Amsterdam', 'Europe/Amsterdm'))).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'product.timeZone' }),
    );
  });

  it('refuses unique with a field the entity does not have', () => {
    expect(
      issuesOf(
        replaced(helpdesk, '| Contact.email | yes | | | customer |', '| Contact.email | yes | | | custmer |'),
      ),
    ).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'validation.fields.Contact.email.uniqueWith' }),
    );
  });

  it('refuses a change of another record that does not read, names what is not there, or adds to text', () => {
    const withUpdate = (statement: string) => {
      const lines = helpdesk.split('\n');
      const at = lines.findIndex((line) => line.startsWith('| Transition | From | To |'));
      if (at < 0) throw new Error('the fixture changed: no transitions table');
      lines[at] = `${lines[at]} Updates |`;
      lines[at + 1] = `${lines[at + 1]} --- |`;
      for (let row = at + 2; lines[row]?.startsWith('|'); row++) {
        lines[row] = `${lines[row]} ${lines[row]?.startsWith('| close |') ? `\`${statement}\`` : ''} |`;
      }
      return lines.join('\n');
    };
    expect(issuesOf(withUpdate('Customer[record.customer].seats -= 1'))).toEqual([]);
    const cases: Array<[string, RegExp]> = [
      ['Customer.seats -= 1', /is not a change of another record/],
      ['Custmer[record.customer].seats -= 1', /Custmer/],
      ['Customer[record.customer].seat -= 1', /names field "seat"/],
      ['Customer[record.customer].name -= 1', /holds text, not a number/],
      ['Customer[record.customer].seats -= record.subjct', /No such key: subjct/],
      ['Customer[record.customer].seats -= 1 when record.hours', /not true or false/],
    ];
    for (const [statement, message] of cases) {
      const found = issuesOf(withUpdate(statement)).filter((issue) => issue.path.includes('updates'));
      expect(found.map((issue) => issue.message).join('\n'), statement).toMatch(message);
    }
  });

  it('warns about a rule whose count can never pass', () => {
    const never = replaced(
      helpdesk,
      '`cel.bind(open, count(Ticket, t, t.customer == record.customer && t.status == "open"), open < MAX_OPEN_TICKETS)`',
      '`count(Ticket, t, t.customer == record.customer && t.status == "open") < 0`',
    );
    expect(issuesOf(never)).toContainEqual({
      severity: 'warning',
      path: 'validation.rules.0.check',
      message:
        'Rule "open-limit" (point 5) refuses every record: "count(Ticket, t, t.customer == record.customer && t.status == "open") < 0" never holds: a count is never below 0.',
    });
    expect(
      issuesOf(replaced(never, ') < 0`', ') <= 0`')).filter(
        (issue) => issue.path === 'validation.rules.0.check',
      ),
    ).toEqual([]);
  });
});
