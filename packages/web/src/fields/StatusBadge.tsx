import { Badge } from '@mantine/core';
import type { StateMachine } from '@ninefold/model';
import { TONE_COLORS } from './state-tone';

/** A record's state as a badge: the state's label in its tone's colour (text, so colour is not the only cue). */
export function StatusBadge({ machine, value }: { machine: StateMachine; value: string }) {
  const state = machine.states.find((candidate) => candidate.name === value);
  return (
    <Badge color={TONE_COLORS[state?.tone ?? 'neutral']} variant="light" radius="sm">
      {state?.label ?? value}
    </Badge>
  );
}
