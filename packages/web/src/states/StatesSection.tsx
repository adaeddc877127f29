import { Stack, Title } from '@mantine/core';
import { type Entity, entityLabel, fieldAccess, type JsonValue } from '@ninefold/model';
import { useId } from 'react';
import { useSpec } from '../app/SpecContext';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { StateDiagram } from './StateDiagram';
import { TransitionHistory } from './TransitionHistory';

addEnglish('drafts', drafts);

export interface StatesSectionProps {
  entity: Entity;
  id: string;
  record: Record<string, JsonValue>;
  version: string | undefined;
}

/**
 * A record's state machine (point 4) on its screens: the diagram with its state highlighted and, where
 * the API keeps one (the prototype API names `history` in `/spec.json`), the transitions it went through.
 * Nothing for an entity without a machine, or for a role that may not read the state.
 */
export function StatesSection({ entity, id, record, version }: StatesSectionProps) {
  const { model, api } = useSpec();
  const { t } = useI18n();
  const { principal } = useSession();
  const headingId = useId();
  const machine = model.states.shown
    ? model.states.machines.find((candidate) => candidate.entity === entity.name)
    : undefined;
  if (!machine) return null;
  if (fieldAccess(model, principal, entity.name).hidden.has(machine.field)) return null;
  const state = record[machine.field];
  // Only the prototype API keeps a history; `/spec.json` names its path then.
  const history = api.history;
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('drafts.statesHeading')}
      </Title>
      <StateDiagram
        machine={machine}
        entityLabel={entityLabel(entity)}
        current={typeof state === 'string' ? state : undefined}
      />
      {history ? (
        <TransitionHistory
          machine={machine}
          entity={entity.name}
          id={id}
          history={history}
          version={version}
        />
      ) : null}
    </Stack>
  );
}
