// A list call: its parameters read strictly, the records the role may read, as JSON pages or as CSV.
import { randomUUID } from 'node:crypto';
import { type Call, type Entity, entityFileName, listDefaultPageSize } from '@ninefold/model';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readableList, refuseHiddenQuery, requireAction } from './access';
import { sendCsv, wantsCsv } from './csv-export';
import { parseListQuery, type QueryValues } from './list-query';
import { presenterFor, shownFields } from './present';
import { ProblemError } from './problem';
import type { Context } from './record-context';

export async function list(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  requireAction(context.model, request, entity, 'read');
  const values = { ...(request.query as QueryValues) };
  const parsed = parseListQuery(
    context.model,
    call,
    values,
    listDefaultPageSize(context.model, entity),
    (request.params ?? {}) as Record<string, string>,
  );
  if ('problem' in parsed) throw new ProblemError(parsed.problem);
  refuseHiddenQuery(context.model, request, entity, parsed.query);
  if (wantsCsv(request)) {
    // The whole list as a file: the page asked for is not what is exported, its filters and sort are.
    const { cursor: _cursor, offset: _offset, ...query } = parsed.query;
    return sendCsv(reply, {
      filename: `${entityFileName(entity)}.csv`,
      // The columns are the fields a page of the list shows the role, by name: never a hidden one.
      ...shownFields(context.model, request, entity),
      present: presenterFor(context.model, request, entity),
      read: (page) =>
        readableList(context.model, request, entity, context.store, { ...query, ...page, withTotal: false }),
      onError: (error) => context.onServerError?.(randomUUID(), error),
    });
  }
  const result = await readableList(context.model, request, entity, context.store, parsed.query);
  const items = result.items.map(presenterFor(context.model, request, entity));
  const response = call.response ?? { shape: 'array' as const };
  if (result.total !== undefined) reply.header('x-total-count', String(result.total));
  if (parsed.page.style === 'link-header' && parsed.page.page !== undefined) {
    reply.header('link', linkHeader(request, parsed.page.page, parsed.page.size, result.total));
  }
  if (response.shape !== 'envelope') return items;
  const pagination = call.pagination;
  return {
    [response.items ?? 'items']: items,
    ...(response.total && result.total !== undefined ? { [response.total]: result.total } : {}),
    ...(pagination?.style === 'cursor' ? { [pagination.nextField]: result.nextCursor ?? null } : {}),
  };
}

export function linkHeader(
  request: FastifyRequest,
  page: number,
  size: number,
  total: number | undefined,
): string {
  const url = new URL(request.url, 'http://local');
  const link = (target: number, rel: string) => {
    url.searchParams.set('page', String(target));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (total === undefined || page * size < total) links.push(link(page + 1, 'next'));
  return links.join(', ');
}
