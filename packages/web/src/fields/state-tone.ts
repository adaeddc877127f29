import type { MantineColor } from '@mantine/core';
import type { Model, StateMachine, Tone } from '@ninefold/model';

/** The colour family of each tone of point 4, for badges in details and in table cells alike. */
export const TONE_COLORS: Record<Tone, MantineColor> = {
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
