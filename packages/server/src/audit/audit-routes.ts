import { Readable } from 'node:stream';
import { csvCell, csvLines, findEntity, permissionsApply, planRead } from '@ninefold/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireAction } from '../access';
import { wantsCsv } from '../csv-export';
import { applied, clip, ProblemError, problem } from '../problem';
import type { Context } from '../record-context';
import { keyValue, load } from '../record-helpers';
import { actorOf } from '../record-writes';
import type { AuditQuery } from '../store/store';
import { auditEntryFor, type ShownAuditEntry } from './audit-view';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
/** Entries read from the database at a time; most readers see most entries. */
const BATCH = 200;
/**
 * The most entries one page looks through for those its reader may see: a reader who may see few of
 * many is given a shorter page and `next`, rather than a request that reads the whole trail.
 */
const MAX_SCAN = 2000;

/**
 * `GET {path}`: the audit trail across records, newest first, of what the reader may read (`entity=`
 * narrows it to one entity). `GET {path}/{Entity}/{id}`: one record's. Both page back with `before=`
 * (the `next` of the page before), and answer `Accept: text/csv` with every entry the reader may see,
 * one row per changed field.
 */
export function registerAudit(app: FastifyInstance, path: string, context: Context): void {
  app.get(path, (request, reply) => {
    const { entity: name } = request.query as { entity?: string };
    if (permissionsApply(context.model) && principalOf(request).role === undefined) {
      throw new ProblemError(problem(401, 'NOT_SIGNED_IN', 'Sign in to read the changes.'));
    }
    if (name !== undefined) {
      const entity = findEntity(context.model, name);
      if (!entity || entity.embedded) throw new ProblemError(noSuchEntity(name));
      requireAction(context.model, request, entity, 'read');
      return answer(request, reply, context, { entity: entity.name });
    }
    return answer(request, reply, context, {});
  });
  app.get(`${path}/:entity/:id`, async (request, reply) => {
    const { entity: name, id } = request.params as { entity: string; id: string };
    const entity = findEntity(context.model, name);
    if (!entity || entity.embedded) throw new ProblemError(noSuchEntity(name));
    requireAction(context.model, request, entity, 'read');
    const { record } = await load(entity, context, id);
    applied(planRead(context.model, actorOf(context, request), entity, record));
    return answer(request, reply, context, { entity: entity.name, key: String(keyValue(entity, record)) });
  });
}

async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Context,
  scope: Pick<AuditQuery, 'entity' | 'key'>,
) {
  const query = request.query as { before?: string; limit?: string };
  const before = whole(query.before, 'before');
  const limit = Math.min(whole(query.limit, 'limit') ?? DEFAULT_LIMIT, MAX_LIMIT);
  const shown = (entry: Parameters<typeof auditEntryFor>[2]) =>
    auditEntryFor(context.model, principalOf(request), entry);
  if (wantsCsv(request)) return sendAuditCsv(reply, context, scope, shown);
  const items: ShownAuditEntry[] = [];
  let cursor = before;
  let scanned = 0;
  let more = true;
  while (items.length < limit && scanned < MAX_SCAN && more) {
    const batch = await context.store.auditEntries({
      ...scope,
      ...(cursor === undefined ? {} : { before: cursor }),
      limit: BATCH,
    });
    more = batch.length === BATCH;
    for (const entry of batch) {
      scanned++;
      cursor = entry.seq;
      const seen = shown(entry);
      if (seen) items.push(seen);
      if (items.length === limit) {
        more = true;
        break;
      }
    }
  }
  return { items, ...(more && cursor !== undefined ? { next: String(cursor) } : {}) };
}

const CSV_COLUMNS = ['at', 'entity', 'key', 'action', 'transition', 'call', 'by', 'field', 'before', 'after'];

/** Every entry the reader may see, one row per changed field, read in batches: memory stays flat. */
function sendAuditCsv(
  reply: FastifyReply,
  context: Context,
  scope: Pick<AuditQuery, 'entity' | 'key'>,
  shown: (entry: Parameters<typeof auditEntryFor>[2]) => ShownAuditEntry | undefined,
) {
  // A batch of entries is written as one piece of text, as the list's export writes its records.
  async function* batches() {
    // A spreadsheet reads the file as UTF-8 by its byte order mark.
    yield `\uFEFF${csvLines([CSV_COLUMNS])}`;
    let before: number | undefined;
    for (;;) {
      const batch = await context.store.auditEntries({
        ...scope,
        ...(before === undefined ? {} : { before }),
        limit: 1000,
      });
      const rows: string[][] = [];
      for (const entry of batch) {
        before = entry.seq;
        const seen = shown(entry);
        if (!seen) continue;
        const by = seen.by === undefined ? '' : (seen.by?.name ?? seen.by?.id ?? '');
        for (const change of seen.changes.length > 0 ? seen.changes : [undefined]) {
          rows.push([
            seen.at,
            seen.entity,
            seen.key,
            seen.action,
            seen.transition ?? '',
            seen.call,
            // Names and values are the people's and the records' own: guarded against formulas.
            csvCell(by, 'text'),
            change?.field ?? '',
            csvCell(change?.before, 'text'),
            csvCell(change?.after, 'text'),
          ]);
        }
      }
      yield csvLines(rows);
      if (batch.length < 1000) return;
    }
  }
  const csv = Readable.from(batches(), { objectMode: false });
  csv.on('error', (error) => context.onServerError?.('audit-export', error));
  return reply
    .type('text/csv; charset=utf-8')
    .header(
      'content-disposition',
      `attachment; filename="changes${scope.entity ? `-${scope.entity}` : ''}.csv"`,
    )
    .header('cache-control', 'no-store')
    .send(csv);
}

function whole(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text) || (name === 'limit' && Number(text) === 0)) {
    throw new ProblemError(problem(400, 'INVALID_QUERY', `${name} is a whole number, not "${clip(text)}".`));
  }
  return Number(text);
}

function noSuchEntity(name: string) {
  return problem(404, 'NOT_FOUND', `${clip(name)} is not an entity this API stores.`);
}
