import { Stack, Title } from '@mantine/core';
import type { Entity } from '@ninefold/model';
import { useId } from 'react';
import { addEnglish } from '../i18n/catalogue';
import { changes as changesMessages } from '../i18n/en/changes';
import { useI18n } from '../i18n/I18nProvider';
import { ChangeList, useChanges } from './ChangeList';

addEnglish('changes', changesMessages);

/** Entries read at a time: the latest are the ones a person looks for. */
const PAGE = 10;

export interface RecordChangesProps {
  entity: Entity;
  id: string;
  /** The API's audit path, relative to its base (`/_audit`). */
  audit: string;
  /** The record's version: a write changes it, and the changes are read again. */
  version: string | undefined;
}

/**
 * A record's changes, newest first, from the prototype API's audit trail: what each write changed, field
 * by field, who made it (where the API tells this person) and when.
 */
export default function RecordChanges({ entity, id, audit, version }: RecordChangesProps) {
  const { t } = useI18n();
  const headingId = useId();
  const query = useChanges(audit, { entity: entity.name, id }, PAGE, version);
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('changes.heading')}
      </Title>
      <ChangeList query={query} />
    </Stack>
  );
}
