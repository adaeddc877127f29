import { Badge, type MantineColor } from '@mantine/core';
import type { Model, StateMachine, Tone } from '@ninefold/spec';

const TONE_COLORS: Record<Tone, MantineColor> = {
  neutral: 'gray',
  info: 'blue',
  success: 'green',
  warning: 'orange',
  danger: 'red',
};

/** The state machine of point 4 whose state lives in this field of this entity, if any. */
export function machineFor(model: Model, entity: string, field: string): StateMachine | undefined {
  return model.states.shown
    ? model.states.machines.find((machine) => machine.entity === entity && machine.field === field)
    : undefined;
}

/** A record's state as a badge: the state's label in its tone's colour (text, so colour is not the only cue). */
export function StatusBadge({ machine, value }: { machine: StateMachine; value: string }) {
  const state = machine.states.find((candidate) => candidate.name === value);
  return (
    <Badge color={TONE_COLORS[state?.tone ?? 'neutral']} variant="light" radius="sm">
      {state?.label ?? value}
    </Badge>
  );
}
