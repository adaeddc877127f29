import { Alert, Button, Group, Radio, Stack, Table, Text } from '@mantine/core';
import { fieldLabel } from '@ninefold/model';
import { type ReactNode, type Ref, useId, useState } from 'react';
import { FieldDisplay } from '../fields/FieldDisplay';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { useI18n } from '../i18n/I18nProvider';
import { type ConflictChoice, type ConflictRow, defaultChoices } from './conflict-rows';

addEnglish('drafts', drafts);

export interface ConflictPanelProps {
  /** The entity's label and name (the name for reference and state displays). */
  entityLabel: string;
  entity: string;
  rows: readonly ConflictRow[];
  /** What the API said, shown first (its problem's text, or the error catalogue's message). */
  message?: ReactNode;
  saving: boolean;
  onKeepMine(): void;
  onTakeTheirs(): void;
  onSaveChoices(choices: Record<string, ConflictChoice>): void;
  /** The panel takes focus when it appears, like the form's other messages. */
  ref?: Ref<HTMLDivElement>;
}

/**
 * A save refused because someone else changed the record meanwhile (a 412): the fields on which the two
 * versions differ, side by side, and the three ways on: keep mine (save over theirs), take theirs (the
 * form shows the record as it is now), or choose per field and save that. Each field's choice starts at
 * the person's value where they changed it and at the other version's where only the other person did.
 */
export function ConflictPanel({
  entityLabel,
  entity,
  rows,
  message,
  saving,
  onKeepMine,
  onTakeTheirs,
  onSaveChoices,
  ref,
}: ConflictPanelProps) {
  const { t } = useI18n();
  const name = useId();
  const [choices, setChoices] = useState(() => defaultChoices(rows));
  return (
    <Alert ref={ref} tabIndex={-1} color="orange" title={t('drafts.conflictTitle', { entity: entityLabel })}>
      <Stack gap="sm">
        {message}
        <Text size="sm">{t('drafts.conflictText')}</Text>
        {rows.length === 0 ? (
          <Text size="sm">{t('drafts.conflictNone')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs" withRowBorders>
              <Table.Caption>{t('drafts.conflictCaption')}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('drafts.conflictField')}</Table.Th>
                  <Table.Th scope="col">{t('drafts.conflictMine')}</Table.Th>
                  <Table.Th scope="col">{t('drafts.conflictTheirs')}</Table.Th>
                  <Table.Th scope="col">{t('drafts.conflictKeep')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => {
                  const label = fieldLabel(row.field);
                  const choice = choices[row.field.name] ?? 'mine';
                  const choose = (next: ConflictChoice) =>
                    setChoices((current) => ({ ...current, [row.field.name]: next }));
                  return (
                    <Table.Tr key={row.field.name}>
                      <Table.Th scope="row">{label}</Table.Th>
                      <Table.Td>
                        <FieldDisplay field={row.field} value={row.mine} entity={entity} />
                      </Table.Td>
                      <Table.Td>
                        <FieldDisplay field={row.field} value={row.theirs} entity={entity} />
                      </Table.Td>
                      <Table.Td>
                        <Group
                          gap="sm"
                          wrap="nowrap"
                          role="radiogroup"
                          aria-label={t('drafts.conflictChoice', { field: label })}
                        >
                          <Radio
                            name={`${name}-${row.field.name}`}
                            label={t('drafts.conflictMine')}
                            checked={choice === 'mine'}
                            onChange={() => choose('mine')}
                          />
                          <Radio
                            name={`${name}-${row.field.name}`}
                            label={t('drafts.conflictTheirs')}
                            checked={choice === 'theirs'}
                            onChange={() => choose('theirs')}
                          />
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group gap="sm">
          <Button onClick={onKeepMine} loading={saving} disabled={saving}>
            {t('drafts.keepMine')}
          </Button>
          <Button variant="default" onClick={onTakeTheirs} disabled={saving}>
            {t('drafts.takeTheirs')}
          </Button>
          {rows.length > 0 ? (
            <Button variant="default" onClick={() => onSaveChoices(choices)} disabled={saving}>
              {t('drafts.saveChoices')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Alert>
  );
}
