import { readFileSync } from 'node:fs';
import { loadSpec, checkRecordRules, aggregateRecords, validateRecord } from './packages/spec/src/index';
const r: any = loadSpec(readFileSync('/work/main/packages/spec/test/fixtures/helpdesk.md','utf8'), { format: 'markdown' } as never);
const model = r.model;
const tickets = [
  { id: 1, customer: 7, status: 'open', hours: 4 },
  { id: 2, customer: 7, status: 'open', hours: 5 },
  { id: 3, customer: 7, status: 'closed', hours: 1 },
  { id: 4, customer: 8, status: 'open' },
];
const customers = [{ id: 7, name: 'A', plan: 'free' }, { id: 8, name: 'B', plan: 'pro' }];
const reader = {
  aggregate: (q: any) => { console.log(JSON.stringify(q)); return aggregateRecords(q.entity === 'Ticket' ? tickets : customers, q); },
  lookup: (e: string, k: any) => (e === 'Ticket' ? tickets : customers).find((x) => x.id === k),
};
console.log(validateRecord(model, 'Ticket', { customer: 7, subject: 'x', dueOn: '2020-01-01' }, { mode: 'create' }));
console.log(await checkRecordRules(model, 'Ticket', { customer: 7, subject: 'x', hours: 1 }, { mode: 'create', reader }));
tickets.push({ id: 5, customer: 7, status: 'open', hours: 0 });
console.log(await checkRecordRules(model, 'Ticket', { customer: 7, subject: 'x', hours: 1 }, { mode: 'create', reader }));
console.log(await checkRecordRules(model, 'Ticket', { customer: 8, subject: 'x', hours: 100 }, { mode: 'create', reader }));
