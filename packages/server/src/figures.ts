import {
  answerFigure,
  checkAction,
  checkFigure,
  checkScreen,
  type DashboardScreen,
  exhaustiveSwitchError,
  FIGURE_PERIODS,
  type Figure,
  type FigureAnswer,
  type FigureGroup,
  type FigurePeriod,
  figureCondition,
  findEntity,
  groupRecords,
  type RecordCondition,
} from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { enforce, principalOf, readNarrowing } from './access';
import { clip, ProblemError, problem } from './problem';
import type { Context } from './record-context';
import type { StoredRecord } from './store/store';

/** How many records one scan reads at a time, where only CEL can tell which ones a role may read. */
const SCAN_BATCH = 500;

/**
 * `GET {figures}/{screen}/{figure}`: a dashboard figure of point 2 as the role may see it, computed by
 * the database over only the records the role may read (its grant's condition joins the figure's own
 * in the SQL). A grant condition only CEL can decide is asked of each matching record here, in batches,
 * as a list does; no record ever leaves the server.
 */
export async function figureAnswer(request: FastifyRequest, context: Context): Promise<FigureAnswer> {
  const { model, store } = context;
  const params = request.params as { screen?: string; figure?: string };
  const screen = model.screens.shown
    ? model.screens.items.find(
        (candidate): candidate is DashboardScreen =>
          candidate.kind === 'dashboard' && candidate.name === params.screen,
      )
    : undefined;
  const figure = screen?.figures.find((candidate) => candidate.name === params.figure);
  const entity = figure ? findEntity(model, figure.entity) : undefined;
  if (!screen || !figure || !entity || entity.embedded) {
    throw new ProblemError(
      problem(
        404,
        'NO_SUCH_FIGURE',
        `There is no figure ${clip(params.figure ?? '')} on a dashboard ${clip(params.screen ?? '')} of point 2.`,
      ),
    );
  }
  const principal = principalOf(request);
  enforce(checkScreen(model, principal, screen));
  const own = figureCondition(model, entity, figure);
  // `check` refuses a figure whose condition is no SQL: only an unchecked model gets here.
  if (!own) throw new Error(`Figure ${figure.name}'s condition cannot be run by the database.`);
  enforce(checkFigure(model, principal, entity, figure, own));
  const narrowing = readNarrowing(model, principal, entity);
  const groupsFor = (at: Figure): Promise<FigureGroup[]> => {
    const query = { entity: entity.name, measure: at.measure, ...optionalParts(at) };
    switch (narrowing.kind) {
      case 'none':
        return store.figureGroups({ ...query, where: own });
      case 'sql':
        return store.figureGroups({ ...query, where: { kind: 'all', of: [own, narrowing.where] } });
      case 'cel':
        return scanned(context, request, at, own);
      default:
        return exhaustiveSwitchError(narrowing);
    }
  };
  return answerFigure(figure, askedPeriod(request, figure), groupsFor);
}

/** `?per=week`: the period the person chose for a figure over time; another word is refused, not guessed. */
function askedPeriod(request: FastifyRequest, figure: Figure): FigurePeriod | undefined {
  const asked = (request.query as { per?: unknown } | undefined)?.per;
  if (asked === undefined) return undefined;
  if (
    figure.per === undefined ||
    typeof asked !== 'string' ||
    !FIGURE_PERIODS.includes(asked as FigurePeriod)
  ) {
    throw new ProblemError(
      problem(
        400,
        'INVALID_PERIOD',
        figure.per === undefined
          ? `Figure ${clip(figure.name)} is not drawn over time: it takes no period.`
          : `The period is one of ${FIGURE_PERIODS.join(', ')}, not ${clip(String(asked))}.`,
      ),
    );
  }
  return asked as FigurePeriod;
}

function optionalParts(figure: Figure) {
  return {
    ...(figure.field === undefined ? {} : { field: figure.field }),
    ...(figure.by === undefined ? {} : { by: figure.by }),
    ...(figure.per === undefined ? {} : { per: figure.per }),
  };
}

/**
 * The groups over the records that meet the figure's condition and that CEL says the role may read. Only
 * the two fields the figure reads are kept of each record, so a large table costs little memory.
 */
async function scanned(
  context: Context,
  request: FastifyRequest,
  figure: Figure,
  where: RecordCondition,
): Promise<FigureGroup[]> {
  const principal = principalOf(request);
  const kept: StoredRecord[] = [];
  for (let offset = 0; ; offset += SCAN_BATCH) {
    const batch = await context.store.list(figure.entity, {
      filters: [],
      sort: [],
      limit: SCAN_BATCH,
      offset,
      withTotal: false,
      where,
    });
    for (const record of batch.items) {
      if (!checkAction(context.model, principal, figure.entity, 'read', record).allowed) continue;
      const slim: StoredRecord = {};
      if (figure.by !== undefined) slim[figure.by] = record[figure.by] ?? null;
      if (figure.field !== undefined) slim[figure.field] = record[figure.field] ?? null;
      kept.push(slim);
    }
    if (batch.items.length < SCAN_BATCH) break;
  }
  return groupRecords(kept, figure, { kind: 'constant', value: true });
}
