import { loadSpec, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { provisionUsers } from '../src/auth/provision';
import { stepTimes } from '../src/seed/seed-history';
import { openPrototypeStore, seedDemoPeople } from '../src/serve';

// A print shop's jobs (a domain of our own). Its words: a designer proofs a job (and the proof's date is
// kept), the client approves it, the pressman prints it (and the print's date is kept). A seeded job's
// history must say so: each step by a demo user of the role that takes it, on the dates the job holds.
const INKWELL = `title: Inkwell Print Shop
product: not shown
screens: not shown
validation: not shown
errors: not shown
constants: not shown
calls: not shown

entities:
  PrintJob:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
      status: { kind: enum, values: [draft, proofed, approved, printed] }
      proofedOn: { kind: date, readOnly: true }
      printedOn: { kind: date, readOnly: true }

states:
  PrintJob.status:
    initial: draft
    states: { draft: {}, proofed: {}, approved: {}, printed: { final: true } }
    transitions:
      proof: { from: [draft], to: proofed, roles: [designer], set: { proofedOn: now } }
      approve: { from: [proofed], to: approved, roles: [client] }
      print: { from: [approved], to: printed, roles: [pressman], set: { printedOn: now } }

roles:
  signIn: { kind: password, session: session }
  roles:
    designer: { can: { PrintJob: all } }
    client: { can: { PrintJob: [read, update] } }
    pressman: { can: { PrintJob: [read, update] } }
`;

/** Who takes each step, as the specification's words say. */
const TAKES: Record<string, string> = { proof: 'designer', approve: 'client', print: 'pressman' };
/** The date a step keeps on the job, as its words say. */
const KEEPS: Record<string, string> = { proof: 'proofedOn', print: 'printedOn' };

function inkwell(): Model {
  const loaded = loadSpec(INKWELL, { file: 'inkwell.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

describe('a seeded record’s history', () => {
  it('has each step taken by a demo user of the role that takes it, on the dates the record holds', async () => {
    const model = inkwell();

    const opened = await openPrototypeStore({ model, url: 'sqlite::memory:', seed: 16, log: () => {} });
    if (!opened.ok) throw new Error(opened.message);
    const { store } = opened;
    try {
      const users = await provisionUsers(store, model, { users: [], demo: true });
      if (!users.ok) throw new Error(users.message);
      await seedDemoPeople(store, model, users);
      const roleOf = new Map(users.users.map((user) => [user.email, user.role]));
      const jobs = (await store.list('PrintJob', { filters: [], sort: [], limit: 100, withTotal: false }))
        .items;
      const later = jobs.filter((job) => job.status !== 'draft');
      expect(later.length).toBeGreaterThan(3);
      for (const job of jobs) {
        const history = (await store.history('PrintJob', job.id as number)).reverse();
        expect(history.at(-1)?.to ?? 'draft', `job ${job.id}`).toBe(job.status);
        for (const [index, entry] of history.entries()) {
          expect(roleOf.get(entry.by?.email ?? ''), `${entry.transition} of job ${job.id}`).toBe(
            TAKES[entry.transition],
          );
          const kept = KEEPS[entry.transition];
          if (kept !== undefined) expect(entry.at.slice(0, 10), `${kept} of job ${job.id}`).toBe(job[kept]);
          expect(Date.parse(entry.at)).toBeLessThanOrEqual(Date.now());
          const previous = history[index - 1];
          if (previous) expect(Date.parse(entry.at)).toBeGreaterThan(Date.parse(previous.at));
        }
      }
    } finally {
      await store.close();
    }
  });

  it('without a sign-in, and so without demo users, is taken by nobody, which is then the truth', async () => {
    const model = inkwell();
    const open = { ...model, roles: { shown: false as const, reason: 'everyone may do everything.' } };
    const opened = await openPrototypeStore({ model: open, url: 'sqlite::memory:', seed: 8, log: () => {} });
    if (!opened.ok) throw new Error(opened.message);
    try {
      await seedDemoPeople(opened.store, open, { ok: true, secretKind: 'password', users: [] });
      const jobs = (
        await opened.store.list('PrintJob', { filters: [], sort: [], limit: 100, withTotal: false })
      ).items;
      const histories = await Promise.all(
        jobs.map((job) => opened.store.history('PrintJob', job.id as number)),
      );
      expect(histories.flat().length).toBeGreaterThan(0);
      expect(histories.flat().every((entry) => entry.by === null)).toBe(true);
    } finally {
      await opened.store.close();
    }
  });

  it('places steps without a date of their own between those with one, in order and in the past', () => {
    const now = Date.parse('2026-06-30T12:00:00Z');
    const model = inkwell();
    const machine = model.states.shown ? model.states.machines[0] : undefined;
    if (!machine) throw new Error('the print shop has a machine');
    const path = ['proof', 'approve', 'print'].map(
      (name) =>
        machine.transitions.find(
          (transition) => transition.name === name,
        ) as (typeof machine.transitions)[number],
    );
    const times = stepTimes(path, { proofedOn: '2026-03-01', printedOn: '2026-03-10' }, now);
    expect(times.map((time) => new Date(time).toISOString().slice(0, 10))).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-10',
    ]);
    // No date at all: a day apart, the last one a day ago.
    expect(stepTimes(path, {}, now)).toEqual([now - 3 * 86_400_000, now - 2 * 86_400_000, now - 86_400_000]);
  });
});
