import { Box, List, Text, VisuallyHidden } from '@mantine/core';
import { humanize, type StateMachine } from '@ninefold/model';
import { useId, useMemo } from 'react';
import { TONE_COLORS } from '../fields/state-tone';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { useI18n } from '../i18n/I18nProvider';
import { layoutMachine } from './diagram-layout';

addEnglish('drafts', drafts);

export interface StateDiagramProps {
  machine: StateMachine;
  /** The entity's label, for the diagram's title. */
  entityLabel: string;
  /** The record's state, highlighted; absent on a screen that shows no record. */
  current?: string | undefined;
}

/**
 * A state machine of point 4 drawn as an SVG: a box per state (the current one in a heavy outline and
 * bold, final ones with a double outline, the initial one pointed at by a start dot) and an arrow per
 * pair of states a transition joins, labelled with the transitions. Drawn by a small layout of its own
 * (`layoutMachine`), so no layout library and nothing evaluated. The SVG is an image with a title and a
 * description; the same facts follow as text (current, initial and final states, and every transition
 * from and to), which is what a screen reader reads, and what a narrow screen can scroll past.
 */
export function StateDiagram({ machine, entityLabel, current }: StateDiagramProps) {
  const i18n = useI18n();
  const { t, tn } = i18n;
  const base = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const titleId = `${base}-title`;
  const descriptionId = `${base}-description`;
  const arrowId = `${base}-arrow`;
  const layout = useMemo(() => layoutMachine(machine), [machine]);
  const labelOf = (name: string) =>
    machine.states.find((state) => state.name === name)?.label ?? humanize(name);
  const list = (items: string[], type: 'conjunction' | 'disjunction') =>
    new Intl.ListFormat(i18n.locale, { type }).format(items);
  const finals = machine.states.filter((state) => state.final).map((state) => labelOf(state.name));
  const summary = [
    t('drafts.diagramSummary', {
      states: tn('drafts.states', layout.nodes.length),
      transitions: tn('drafts.transitions', machine.transitions.length),
    }),
    current ? t('drafts.currentState', { state: labelOf(current) }) : undefined,
    t('drafts.initialState', { entity: entityLabel, state: labelOf(machine.initial) }),
    finals.length > 0 ? t('drafts.finalStates', { states: list(finals, 'conjunction') }) : undefined,
  ].filter((line): line is string => line !== undefined);

  return (
    <div>
      {/* On a phone the diagram scrolls sideways: the box takes focus so that a keyboard can scroll it, and
          a shadow at the edge says that more of it is there (app.css). */}
      <Box className="nf-scroll-x" role="region" aria-labelledby={titleId} tabIndex={0}>
        <svg
          role="img"
          aria-labelledby={titleId}
          aria-describedby={descriptionId}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          // Narrowed to fit a little (its text stays readable), else it scrolls sideways.
          style={{
            display: 'block',
            width: '100%',
            minWidth: Math.round(layout.width * 0.8),
            maxWidth: layout.width,
            height: 'auto',
            fontFamily: 'var(--mantine-font-family)',
          }}
        >
          <title id={titleId}>{t('drafts.diagramTitle', { entity: entityLabel })}</title>
          <desc id={descriptionId}>{summary.join(' ')}</desc>
          <defs>
            <marker
              id={arrowId}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="8"
              markerHeight="8"
              orient="auto-start-reverse"
            >
              <path d="M 0 0 L 10 5 L 0 10 z" style={{ fill: 'var(--mantine-color-dimmed)' }} />
            </marker>
          </defs>
          {layout.start ? (
            <g>
              <circle
                cx={layout.start.x}
                cy={layout.start.y}
                r={6}
                style={{ fill: 'var(--mantine-color-text)' }}
              />
              <path
                d={layout.start.path}
                markerEnd={`url(#${arrowId})`}
                style={{ fill: 'none', stroke: 'var(--mantine-color-dimmed)', strokeWidth: 1.5 }}
              />
            </g>
          ) : null}
          {layout.edges.map((edge) => (
            <g key={`${edge.from}>${edge.to}`}>
              <path
                d={edge.path}
                markerEnd={`url(#${arrowId})`}
                style={{ fill: 'none', stroke: 'var(--mantine-color-dimmed)', strokeWidth: 1.5 }}
              />
              <text
                x={edge.labelX}
                y={edge.labelY}
                textAnchor={edge.align}
                fontSize={12}
                style={{
                  fill: 'var(--mantine-color-text)',
                  paintOrder: 'stroke',
                  stroke: 'var(--mantine-color-body)',
                  strokeWidth: 4,
                }}
              >
                {edge.lines.map((line, index) => (
                  <tspan key={index === 0 ? 'first' : 'second'} x={edge.labelX} dy={index === 0 ? 0 : 13}>
                    {line}
                  </tspan>
                ))}
              </text>
            </g>
          ))}
          {layout.nodes.map((node) => {
            const state = machine.states.find((candidate) => candidate.name === node.name);
            const colour = `var(--mantine-color-${TONE_COLORS[state?.tone ?? 'neutral']}-light)`;
            const isCurrent = node.name === current;
            const outline = isCurrent
              ? 'var(--mantine-primary-color-filled)'
              : 'var(--mantine-color-default-border)';
            return (
              <g key={node.name} data-state={node.name} data-current={isCurrent ? 'true' : undefined}>
                <title>
                  {[
                    node.label,
                    isCurrent ? t('drafts.currentMark') : undefined,
                    node.final ? t('drafts.finalMark') : undefined,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </title>
                <rect
                  x={node.x}
                  y={node.y}
                  width={node.width}
                  height={node.height}
                  rx={8}
                  style={{ fill: colour, stroke: outline, strokeWidth: isCurrent ? 3 : 1.5 }}
                />
                {node.final ? (
                  <rect
                    x={node.x + 4}
                    y={node.y + 4}
                    width={node.width - 8}
                    height={node.height - 8}
                    rx={5}
                    style={{ fill: 'none', stroke: outline, strokeWidth: 1 }}
                  />
                ) : null}
                <text
                  x={node.x + node.width / 2}
                  y={node.y + node.height / 2 + 4.5}
                  textAnchor="middle"
                  fontSize={13}
                  fontWeight={isCurrent ? 700 : 400}
                  style={{ fill: 'var(--mantine-color-text)' }}
                >
                  {node.shown}
                </text>
              </g>
            );
          })}
        </svg>
      </Box>
      {/* Mantine's own visually-hidden style, on a block that may hold a paragraph and a list. */}
      <div className={VisuallyHidden.classes.root}>
        <Text>{summary.join(' ')}</Text>
        <List aria-label={t('drafts.transitionsList')}>
          {machine.transitions.map((transition) => (
            <List.Item key={transition.name}>
              {t('drafts.transitionLine', {
                transition: transition.label ?? humanize(transition.name),
                from: list(transition.from.map(labelOf), 'disjunction'),
                to: labelOf(transition.to),
              })}
            </List.Item>
          ))}
        </List>
      </div>
    </div>
  );
}
