import { Anchor, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { checkAction, type Entity, entityLabel, entityPlural, humanize, type Model } from '@ninefold/model';
import { useState } from 'react';
import { Link } from '../app/router';
import { routeTo, screenFor } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { saveBlob } from '../app/save-blob';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { addEnglish } from '../i18n/catalogue';
import { changes as changesMessages } from '../i18n/en/changes';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { useSessionStore } from '../session/SessionProvider';
import { ChangeList, useChanges } from './ChangeList';
import { type ChangeEntry, changesCsv } from './changes-reader';

addEnglish('changes', changesMessages);

const PAGE = 25;

/**
 * Every change the person may see across records, newest first (the prototype API's audit trail): what
 * was written, to which record, by whom where the API tells them, and when; narrowed to one entity, and
 * downloaded as CSV. The API decides what each entry shows; this page shows what it is given.
 */
export default function ChangesPage({ audit }: { audit: string }) {
  const { model, api } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const session = useSessionStore();
  const { principal } = useSession();
  const [entity, setEntity] = useState('');
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState<string | undefined>(undefined);
  useDocumentTitle(t('changes.heading'));
  const readable = (model.entities.shown ? model.entities.items : []).filter(
    (candidate) => !candidate.embedded && checkAction(model, principal, candidate.name, 'read').allowed,
  );
  const query = useChanges(audit, entity === '' ? {} : { entity }, PAGE);
  const download = async () => {
    setExporting(true);
    setExportFailed(undefined);
    try {
      const blob = await changesCsv({
        base: api.base,
        audit,
        ...(entity === '' ? {} : { entity }),
        headers: session.authHeaders(),
      });
      saveBlob(blob, `changes${entity ? `-${entity}` : ''}.csv`);
    } catch (error) {
      setExportFailed(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="md">
      <Title order={1}>{t('changes.heading')}</Title>
      <Group align="end" gap="sm">
        <NativeSelect
          label={t('changes.of')}
          value={entity}
          onChange={(event) => setEntity(event.currentTarget.value)}
          data={[
            { value: '', label: t('changes.everything') },
            ...readable.map((candidate) => ({ value: candidate.name, label: entityPlural(candidate) })),
          ]}
        />
        <Button variant="default" loading={exporting} onClick={() => void download()}>
          {t('changes.download')}
        </Button>
      </Group>
      {exportFailed === undefined ? null : (
        <Text size="sm" c="red" role="alert">
          {t('changes.exportFailed', { message: exportFailed })}
        </Text>
      )}
      <ChangeList
        query={query}
        record={(entry, written) => <RecordLink model={model} entity={written} entry={entry} />}
      />
    </Stack>
  );
}

/** The record an entry wrote, linked to its page while it has one (a deleted record has none). */
function RecordLink({
  model,
  entity,
  entry,
}: {
  model: Model;
  entity: Entity | undefined;
  entry: ChangeEntry;
}) {
  // A change of a person is shown by `personEntity`: "Person" and their email, with no page to open.
  const label = `${entity ? entityLabel(entity) : humanize(entry.entity)} ${entry.key}`;
  const detail = entity ? screenFor(model, 'detail', entity.name) : undefined;
  if (!detail || entry.action === 'delete') {
    return (
      <Text size="sm" span>
        {label}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={routeTo(detail.route, { id: entry.key })} size="sm">
      {label}
    </Anchor>
  );
}
