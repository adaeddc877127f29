import type { JsonValue } from '@ninefold/model';

// The API cases the prototype API of `ninefold serve` and the playground's API in the tab must both pass
// (playground-api-cases.test.ts runs each against both). Each case is a story of calls made by people of
// the specification's roles, with the answer each call must get: `ok`, or the status and code refused.

export interface ApiCase {
  name: string;
  /** A specification file, relative to the repository. */
  spec: string;
  /** Who makes the calls, by a name the steps use: a role of point 6 (null: nobody signed in). */
  people: Record<string, { role: string | null; attributes?: Record<string, JsonValue> }>;
  steps: ApiStep[];
  /** Turns the model into a variant before it is served (every field writable, say). */
  variant?: 'every-field-writable';
}

export type ApiStep = {
  /** Who calls, by a name of `people`. */
  as: string;
  entity: string;
  /** The answer: `ok`, or `STATUS CODE` (`403 FORBIDDEN`). */
  expect: string;
} & (
  | { do: 'create'; values: Record<string, JsonValue>; save?: string }
  | { do: 'update'; id: string; values: Record<string, JsonValue> }
  | { do: 'get' | 'delete'; id: string; hidden?: string[] }
  | { do: 'transition'; id: string; transition: string }
  /** `count`: how many records the person sees; `hidden`: fields never in what they see. */
  | { do: 'list'; count?: number; hidden?: string[] }
);

const library = 'packages/web/test/fixtures/tool-library.md';

export const API_CASES: ApiCase[] = [
  {
    name: 'tool library: members ask for tools, volunteers lend them within the limits',
    spec: library,
    people: {
      volunteer: { role: 'volunteer' },
      ann: { role: 'member', attributes: { memberId: 1 } },
      bo: { role: 'member', attributes: { memberId: 2 } },
      nobody: { role: null },
    },
    steps: [
      {
        as: 'volunteer',
        do: 'create',
        entity: 'Member',
        values: { name: 'Ann', email: 'ann@example.com' },
        save: 'ann',
        expect: 'ok',
      },
      {
        as: 'volunteer',
        do: 'create',
        entity: 'Member',
        values: { name: 'Bo', email: 'bo@example.com' },
        save: 'bo',
        expect: 'ok',
      },
      {
        as: 'volunteer',
        do: 'create',
        entity: 'Member',
        values: { name: 'Ann again', email: 'ann@example.com' },
        expect: '422 VALIDATION_FAILED',
      },
      {
        as: 'volunteer',
        do: 'create',
        entity: 'Tool',
        values: { name: 'Drill', stock: 1 },
        save: 'drill',
        expect: 'ok',
      },
      {
        as: 'volunteer',
        do: 'create',
        entity: 'Tool',
        values: { name: 'Saw', stock: 3 },
        save: 'saw',
        expect: 'ok',
      },
      {
        as: 'volunteer',
        do: 'create',
        entity: 'Tool',
        values: { name: 'Ladder', stock: -1 },
        expect: '422 VALIDATION_FAILED',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Tool',
        values: { name: 'Hammer', stock: 1 },
        expect: '403 FORBIDDEN',
      },
      { as: 'nobody', do: 'list', entity: 'Tool', expect: '401 NOT_SIGNED_IN' },
      { as: 'ann', do: 'list', entity: 'Tool', count: 2, expect: 'ok' },
      // A member asks only in their own name, and sets no counter note.
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 2, tool: 1, dueOn: '2026-07-01' },
        expect: '403 FORBIDDEN',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 1, dueOn: '2026-07-01', note: 'me' },
        expect: '403 FORBIDDEN_FIELDS',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 9, dueOn: '2026-07-01' },
        expect: '422 VALIDATION_FAILED',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 1 },
        expect: '422 VALIDATION_FAILED',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 1, dueOn: '2026-07-01' },
        save: 'a1',
        expect: 'ok',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 2, dueOn: '2026-07-01' },
        save: 'a2',
        expect: 'ok',
      },
      // A third request waiting breaks the rule across records.
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 2, dueOn: '2026-07-02' },
        expect: '422 TOO_MANY_REQUESTS',
      },
      {
        as: 'bo',
        do: 'create',
        entity: 'Loan',
        values: { member: 2, tool: 1, dueOn: '2026-07-01' },
        save: 'b1',
        expect: 'ok',
      },
      // Each member sees their own loans, never the note; the volunteer sees all.
      { as: 'ann', do: 'list', entity: 'Loan', count: 2, hidden: ['note'], expect: 'ok' },
      { as: 'bo', do: 'list', entity: 'Loan', count: 1, hidden: ['note'], expect: 'ok' },
      { as: 'volunteer', do: 'list', entity: 'Loan', count: 3, expect: 'ok' },
      // Another member's loan is answered as missing: its ids cannot be told from ids that do not exist.
      { as: 'bo', do: 'get', entity: 'Loan', id: 'a1', expect: '404 NOT_FOUND' },
      { as: 'ann', do: 'get', entity: 'Loan', id: 'a1', hidden: ['note'], expect: 'ok' },
      {
        as: 'ann',
        do: 'update',
        entity: 'Loan',
        id: 'a1',
        values: { dueOn: '2026-08-01' },
        expect: '403 FORBIDDEN',
      },
      { as: 'ann', do: 'delete', entity: 'Loan', id: 'a1', expect: '403 FORBIDDEN' },
      // Lending is the volunteers'; it takes the tool's stock, and the last one cannot be lent twice.
      { as: 'ann', do: 'transition', entity: 'Loan', id: 'a1', transition: 'lend', expect: '403 FORBIDDEN' },
      { as: 'volunteer', do: 'transition', entity: 'Loan', id: 'a1', transition: 'lend', expect: 'ok' },
      {
        as: 'volunteer',
        do: 'transition',
        entity: 'Loan',
        id: 'a1',
        transition: 'lend',
        expect: '409 ILLEGAL_TRANSITION',
      },
      {
        as: 'volunteer',
        do: 'transition',
        entity: 'Loan',
        id: 'b1',
        transition: 'lend',
        expect: '409 UPDATE_REFUSED',
      },
      { as: 'volunteer', do: 'transition', entity: 'Loan', id: 'a2', transition: 'lend', expect: 'ok' },
      {
        as: 'volunteer',
        do: 'update',
        entity: 'Loan',
        id: 'a2',
        values: { status: 'returned' },
        expect: '409 USE_A_TRANSITION',
      },
      { as: 'ann', do: 'transition', entity: 'Loan', id: 'a1', transition: 'bringBack', expect: 'ok' },
      { as: 'volunteer', do: 'transition', entity: 'Loan', id: 'b1', transition: 'lend', expect: 'ok' },
      // A member with two tools out is refused a third by the guard; a request can be refused.
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 2, dueOn: '2026-07-03' },
        save: 'a3',
        expect: 'ok',
      },
      {
        as: 'ann',
        do: 'create',
        entity: 'Loan',
        values: { member: 1, tool: 2, dueOn: '2026-07-04' },
        save: 'a4',
        expect: 'ok',
      },
      { as: 'volunteer', do: 'transition', entity: 'Loan', id: 'a3', transition: 'lend', expect: 'ok' },
      {
        as: 'volunteer',
        do: 'transition',
        entity: 'Loan',
        id: 'a4',
        transition: 'lend',
        expect: '409 GUARD_FAILED',
      },
      { as: 'volunteer', do: 'transition', entity: 'Loan', id: 'a4', transition: 'refuse', expect: 'ok' },
      { as: 'volunteer', do: 'delete', entity: 'Member', id: 'ann', expect: '409 STILL_REFERENCED' },
      { as: 'volunteer', do: 'delete', entity: 'Loan', id: 'a4', expect: 'ok' },
      { as: 'volunteer', do: 'get', entity: 'Loan', id: 'a4', expect: '404 NOT_FOUND' },
    ],
  },
  {
    name: 'helpdesk: members follow their own tickets, agents those of their team',
    spec: 'examples/helpdesk.md',
    people: {
      admin: { role: 'admin' },
      agent: { role: 'agent', attributes: { teamId: 1 } },
      mia: { role: 'member' },
      max: { role: 'member' },
    },
    steps: [
      {
        as: 'admin',
        do: 'create',
        entity: 'Team',
        values: { name: 'Support', email: 'support@example.com' },
        expect: 'ok',
      },
      {
        as: 'admin',
        do: 'create',
        entity: 'Team',
        values: { name: 'Billing', email: 'billing@example.com' },
        expect: 'ok',
      },
      {
        as: 'admin',
        do: 'create',
        entity: 'Team',
        values: { name: 'Support', email: 'other@example.com' },
        expect: '422 VALIDATION_FAILED',
      },
      {
        as: 'mia',
        do: 'create',
        entity: 'Team',
        values: { name: 'Mine', email: 'mine@example.com' },
        expect: '403 FORBIDDEN',
      },
      {
        as: 'mia',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Printer', team: 1 },
        save: 't1',
        expect: 'ok',
      },
      {
        as: 'mia',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Down', team: 1, priority: 'urgent', details: 'short' },
        expect: '422 URGENT_WITHOUT_DETAILS',
      },
      {
        as: 'mia',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Note', team: 1, internalNote: 'x' },
        expect: '403 FORBIDDEN_FIELDS',
      },
      {
        as: 'max',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Invoice', team: 2 },
        save: 't2',
        expect: 'ok',
      },
      { as: 'mia', do: 'list', entity: 'Ticket', count: 1, hidden: ['internalNote'], expect: 'ok' },
      { as: 'agent', do: 'list', entity: 'Ticket', count: 1, expect: 'ok' },
      { as: 'admin', do: 'list', entity: 'Ticket', count: 2, expect: 'ok' },
      // Records out of reach are answered as missing (404), never as forbidden (403), so ids cannot be counted.
      { as: 'max', do: 'get', entity: 'Ticket', id: 't1', expect: '404 NOT_FOUND' },
      { as: 'agent', do: 'get', entity: 'Ticket', id: 't2', expect: '404 NOT_FOUND' },
      {
        as: 'agent',
        do: 'update',
        entity: 'Ticket',
        id: 't1',
        values: { title: 'Printer jam' },
        expect: '403 FORBIDDEN_FIELDS',
      },
      {
        as: 'agent',
        do: 'update',
        entity: 'Ticket',
        id: 't1',
        values: { internalNote: 'toner' },
        expect: 'ok',
      },
      {
        as: 'mia',
        do: 'transition',
        entity: 'Ticket',
        id: 't1',
        transition: 'start',
        expect: '403 FORBIDDEN',
      },
      { as: 'agent', do: 'transition', entity: 'Ticket', id: 't1', transition: 'start', expect: 'ok' },
      {
        as: 'agent',
        do: 'transition',
        entity: 'Ticket',
        id: 't1',
        transition: 'reopen',
        expect: '403 FORBIDDEN',
      },
      {
        as: 'agent',
        do: 'transition',
        entity: 'Ticket',
        id: 't1',
        transition: 'close',
        expect: '409 ILLEGAL_TRANSITION',
      },
      { as: 'agent', do: 'transition', entity: 'Ticket', id: 't1', transition: 'solve', expect: 'ok' },
      { as: 'mia', do: 'transition', entity: 'Ticket', id: 't1', transition: 'close', expect: 'ok' },
      // Closed, the ticket is out of its requester's reach.
      { as: 'mia', do: 'get', entity: 'Ticket', id: 't1', expect: '404 NOT_FOUND' },
      { as: 'mia', do: 'list', entity: 'Ticket', count: 0, expect: 'ok' },
      { as: 'mia', do: 'delete', entity: 'Ticket', id: 't2', expect: '403 FORBIDDEN' },
      { as: 'admin', do: 'delete', entity: 'Team', id: '1', expect: '409 STILL_REFERENCED' },
    ],
  },
  {
    name: 'helpdesk, every field writable: the grants still decide whose records are whose',
    spec: 'examples/helpdesk.md',
    variant: 'every-field-writable',
    people: { admin: { role: 'admin' }, mia: { role: 'member' }, max: { role: 'member' } },
    steps: [
      {
        as: 'admin',
        do: 'create',
        entity: 'Team',
        values: { name: 'Support', email: 'support@example.com' },
        expect: 'ok',
      },
      // Asked of the record as it will be stored: without the requester set on create, it is nobody's.
      {
        as: 'mia',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Printer', team: 1, internalNote: 'x' },
        expect: '403 FORBIDDEN',
      },
      {
        as: 'mia',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Printer', team: 1, requesterId: 'someone else' },
        expect: '403 FORBIDDEN',
      },
      {
        as: 'admin',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Printer', team: 1, status: 'closed' },
        expect: '422 VALIDATION_FAILED',
      },
      {
        as: 'admin',
        do: 'create',
        entity: 'Ticket',
        values: { title: 'Printer', team: 1, requesterId: 'someone else' },
        save: 't1',
        expect: 'ok',
      },
      {
        as: 'mia',
        do: 'update',
        entity: 'Ticket',
        id: 't1',
        values: { title: 'Taken' },
        expect: '404 NOT_FOUND',
      },
      { as: 'mia', do: 'list', entity: 'Ticket', count: 0, expect: 'ok' },
      {
        as: 'admin',
        do: 'update',
        entity: 'Ticket',
        id: 't1',
        values: { requesterId: 'another one' },
        expect: 'ok',
      },
      {
        as: 'admin',
        do: 'update',
        entity: 'Ticket',
        id: 't1',
        values: { status: 'closed' },
        expect: '409 USE_A_TRANSITION',
      },
    ],
  },
];
