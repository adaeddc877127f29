import { humanize, type StateMachine } from '@ninefold/model';

/** A state as the diagram draws it: a box at a place, with its label. */
export interface DiagramNode {
  name: string;
  label: string;
  /** The label as drawn: clipped when long (the full one is in the box's title and the text list). */
  shown: string;
  x: number;
  y: number;
  width: number;
  height: number;
  final: boolean;
  initial: boolean;
}

/** The transitions between two states (or from a state to itself), drawn as one arrow. */
export interface DiagramEdge {
  from: string;
  to: string;
  /** The transitions' labels, in the machine's order. */
  labels: string[];
  /** The label as drawn: clipped when long, on two lines when it has several words. */
  lines: string[];
  /** SVG path data, from the source's border to the target's. */
  path: string;
  /** Where the label's first line sits (its baseline), and how it is aligned on `labelX`. */
  labelX: number;
  labelY: number;
  align: 'middle' | 'start';
}

export interface DiagramLayout {
  width: number;
  height: number;
  nodes: DiagramNode[];
  edges: DiagramEdge[];
  /** Where the start dot sits, pointing at the initial state; absent when the machine has none drawn. */
  start?: { x: number; y: number; path: string };
}

const MARGIN = 16;
const NODE_HEIGHT = 40;
const ROW_GAP = 44;
const START_SPACE = 40;
const MIN_NODE_WIDTH = 88;
const MAX_NODE_WIDTH = 180;
/** An average character of the diagram's 13 px sans-serif text; no measuring (and no DOM) needed. */
const CHAR_WIDTH = 7.2;
/** The same for the 12 px labels of the arrows. */
const LABEL_CHAR_WIDTH = 6.6;
const LINE_HEIGHT = 13;
const MAX_LABEL_CHARS = 26;
/** A label longer than this goes on two lines, so that the columns stay close. */
const ONE_LINE_CHARS = 12;

/**
 * A small layered layout of a state machine, left to right: the initial state first, then each state in
 * the column of its distance from it (breadth first), states of one column stacked in the machine's
 * order, and states no transition reaches in a last column. Most machines are a main path with side
 * exits (an order's draft → placed → paid → shipped → delivered, with cancelled below), which this draws
 * as a straight line with branches. Arrows between neighbouring columns are straight; others bend
 * around the boxes; several transitions between the same two states share one arrow.
 *
 * @example
 * const layout = layoutMachine(orderStatus);
 * layout.nodes.map((node) => node.name); // ['draft', 'placed', 'cancelled', 'paid', 'shipped', 'delivered']
 */
export function layoutMachine(machine: StateMachine): DiagramLayout {
  const names = stateNames(machine);
  const rank = ranks(machine, names);
  const columns: string[][] = [];
  for (const name of names) {
    const column = rank.get(name) ?? 0;
    const members = columns[column] ?? [];
    members.push(name);
    columns[column] = members;
  }

  const edges = groupEdges(machine);
  const labelWidth = Math.max(
    0,
    ...edges.map((edge) => Math.max(...wrap(clip(edge.labels.join(', '))).map(labelWidthOf))),
  );
  const columnGap = Math.min(220, Math.max(64, labelWidth + 20));

  const nodes = new Map<string, DiagramNode>();
  // A transition from a state to itself loops over its box: the top row needs room for it and its label.
  const loops = edges.filter((edge) => edge.from === edge.to);
  const loopLines = Math.max(0, ...loops.map((edge) => wrap(clip(edge.labels.join(', '))).length));
  const top = MARGIN + (loopLines > 0 ? 34 + loopLines * LINE_HEIGHT : 0);
  let x = MARGIN + START_SPACE;
  let height = 0;
  for (const column of columns) {
    if (!column) continue;
    const width = Math.max(
      ...column.map((name) =>
        Math.min(MAX_NODE_WIDTH, Math.max(MIN_NODE_WIDTH, textWidth(clip(labelOf(machine, name))) + 28)),
      ),
    );
    column.forEach((name, row) => {
      const state = machine.states.find((candidate) => candidate.name === name);
      const label = labelOf(machine, name);
      const y = top + row * (NODE_HEIGHT + ROW_GAP);
      nodes.set(name, {
        name,
        label,
        shown: clip(label, Math.floor((width - 20) / CHAR_WIDTH)),
        x,
        y,
        width,
        height: NODE_HEIGHT,
        final: state?.final === true,
        initial: name === machine.initial,
      });
      height = Math.max(height, y + NODE_HEIGHT);
    });
    x += width + columnGap;
  }
  const width = x - columnGap + MARGIN;

  const drawn: DiagramEdge[] = [];
  let under = 0;
  for (const edge of edges) {
    const from = nodes.get(edge.from);
    const to = nodes.get(edge.to);
    if (!from || !to) continue;
    const lines = wrap(clip(edge.labels.join(', ')));
    // Arrows that go back or skip columns run under the boxes, one lane each, below the labels above.
    const placed = route(from, to, rank, height + 28 + under);
    if (placed.under) under += 10 + lines.length * LINE_HEIGHT;
    const first =
      placed.block === 'above'
        ? placed.labelY - (lines.length - 1) * LINE_HEIGHT
        : placed.block === 'centre'
          ? placed.labelY - ((lines.length - 1) * LINE_HEIGHT) / 2
          : placed.labelY;
    drawn.push({
      ...edge,
      lines,
      path: placed.path,
      labelX: placed.labelX,
      labelY: first,
      align: placed.align ?? 'middle',
    });
  }
  const bottom =
    Math.max(height, ...drawn.map((edge) => edge.labelY + (edge.lines.length - 1) * LINE_HEIGHT)) + MARGIN;

  const initial = nodes.get(machine.initial);
  const start = initial
    ? {
        x: MARGIN + 6,
        y: initial.y + NODE_HEIGHT / 2,
        path: `M ${MARGIN + 12} ${initial.y + NODE_HEIGHT / 2} L ${initial.x - 2} ${initial.y + NODE_HEIGHT / 2}`,
      }
    : undefined;

  return {
    width: Math.ceil(width),
    height: Math.ceil(bottom),
    nodes: [...nodes.values()],
    edges: drawn,
    ...(start ? { start } : {}),
  };
}

/** Every state: those the machine lists, then any a transition names that it does not. */
function stateNames(machine: StateMachine): string[] {
  const names = machine.states.map((state) => state.name);
  const seen = new Set(names);
  const add = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  add(machine.initial);
  for (const transition of machine.transitions) {
    for (const from of transition.from) add(from);
    add(transition.to);
  }
  return names;
}

/** Each state's distance from the initial state; states it cannot reach go in one column after the rest. */
function ranks(machine: StateMachine, names: readonly string[]): Map<string, number> {
  const rank = new Map<string, number>();
  if (names.includes(machine.initial)) {
    rank.set(machine.initial, 0);
    const queue = [machine.initial];
    while (queue.length > 0) {
      const current = queue.shift() as string;
      const next = (rank.get(current) ?? 0) + 1;
      for (const transition of machine.transitions) {
        if (transition.from.includes(current) && !rank.has(transition.to)) {
          rank.set(transition.to, next);
          queue.push(transition.to);
        }
      }
    }
  }
  const last = rank.size === 0 ? 0 : Math.max(...rank.values()) + 1;
  for (const name of names) if (!rank.has(name)) rank.set(name, last);
  return rank;
}

function groupEdges(machine: StateMachine): Array<Pick<DiagramEdge, 'from' | 'to' | 'labels'>> {
  const edges = new Map<string, Pick<DiagramEdge, 'from' | 'to' | 'labels'>>();
  for (const transition of machine.transitions) {
    const label = transition.label ?? humanize(transition.name);
    for (const from of transition.from) {
      const key = JSON.stringify([from, transition.to]);
      const edge = edges.get(key) ?? { from, to: transition.to, labels: [] };
      if (!edge.labels.includes(label)) edge.labels.push(label);
      edges.set(key, edge);
    }
  }
  return [...edges.values()];
}

/** The arrow's path and where its label goes, by where the two boxes are. */
function route(from: DiagramNode, to: DiagramNode, rank: ReadonlyMap<string, number>, lane: number): Route {
  const fromRank = rank.get(from.name) ?? 0;
  const toRank = rank.get(to.name) ?? 0;
  const middleY = (node: DiagramNode) => node.y + node.height / 2;
  const centreX = (node: DiagramNode) => node.x + node.width / 2;
  if (from === to) {
    // A loop over the top of the box.
    const left = from.x + from.width * 0.35;
    const right = from.x + from.width * 0.65;
    const top = from.y;
    return {
      path: `M ${left} ${top} C ${left} ${top - 34}, ${right} ${top - 34}, ${right} ${top - 2}`,
      labelX: centreX(from),
      labelY: top - 32,
      block: 'above',
    };
  }
  if (toRank === fromRank + 1) {
    const x1 = from.x + from.width;
    const y1 = middleY(from);
    const x2 = to.x - 2;
    const y2 = middleY(to);
    return {
      path: `M ${x1} ${y1} L ${x2} ${y2}`,
      labelX: (x1 + x2) / 2,
      labelY: (y1 + y2) / 2 - 6,
      block: 'above',
    };
  }
  if (toRank === fromRank && centreX(from) === centreX(to)) {
    // Within a column: straight down (or up) to a neighbour, else around the right of the boxes.
    const down = to.y > from.y;
    const gap = Math.abs(to.y - from.y) - NODE_HEIGHT;
    if (gap <= ROW_GAP) {
      const x = centreX(from);
      const y1 = down ? from.y + from.height : from.y;
      const y2 = down ? to.y - 2 : to.y + to.height + 2;
      return {
        path: `M ${x} ${y1} L ${x} ${y2}`,
        labelX: x + 6,
        labelY: (y1 + y2) / 2 + 4,
        block: 'centre',
        align: 'start',
      };
    }
    const x = from.x + from.width;
    const bend = x + 48;
    return {
      path: `M ${x} ${middleY(from)} Q ${bend} ${(middleY(from) + middleY(to)) / 2}, ${x + 2} ${middleY(to)}`,
      labelX: bend + 4,
      labelY: (middleY(from) + middleY(to)) / 2 + 4,
      block: 'centre',
      align: 'start',
    };
  }
  // Across several columns, or back: under the boxes, so that it crosses none of them.
  const x1 = centreX(from);
  const x2 = centreX(to);
  const y1 = from.y + from.height;
  const y2 = to.y + to.height + 2;
  return {
    path: `M ${x1} ${y1} C ${x1} ${lane}, ${x2} ${lane}, ${x2} ${y2}`,
    labelX: (x1 + x2) / 2,
    labelY: lane + 4,
    block: 'below',
    under: true,
  };
}

interface Route {
  path: string;
  labelX: number;
  labelY: number;
  /** Where the label goes from `labelY`: ending there, starting there, or centred on it. */
  block: 'above' | 'below' | 'centre';
  align?: 'middle' | 'start';
  /** Runs under the boxes, in a lane of its own. */
  under?: true;
}

function labelOf(machine: StateMachine, name: string): string {
  return machine.states.find((state) => state.name === name)?.label ?? humanize(name);
}

function clip(text: string, max = MAX_LABEL_CHARS): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, Math.max(1, max - 1)).join('')}…` : text;
}

function textWidth(text: string): number {
  return [...text].length * CHAR_WIDTH;
}

function labelWidthOf(line: string): number {
  return [...line].length * LABEL_CHAR_WIDTH;
}

/** A label on one line, or on two split at the space that makes the longer line shortest. */
export function wrap(text: string): string[] {
  const words = text.split(' ');
  if ([...text].length <= ONE_LINE_CHARS || words.length < 2) return [text];
  let best: string[] = [text];
  let longest = Number.POSITIVE_INFINITY;
  for (let cut = 1; cut < words.length; cut += 1) {
    const lines = [words.slice(0, cut).join(' '), words.slice(cut).join(' ')];
    const length = Math.max(...lines.map((line) => [...line].length));
    if (length < longest) {
      longest = length;
      best = lines;
    }
  }
  return best;
}
