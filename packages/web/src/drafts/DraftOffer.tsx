import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { useI18n } from '../i18n/I18nProvider';
import type { Draft } from './draft-store';

addEnglish('drafts', drafts);

export interface DraftOfferProps {
  draft: Draft;
  /** The entity's label, for saying that the record changed since. */
  entity: string;
  /** Whether the record on the server is not the one the draft was based on (edit only). */
  changedSince: boolean;
  onRestore(): void;
  onDiscard(): void;
}

/**
 * Unsaved changes found for this form, offered back above it: when they were made, whether the record
 * has changed on the server since, and which chosen files must be chosen again. A region named by its
 * title, not an alert: it waits for a choice without interrupting what a screen reader is saying.
 */
export function DraftOffer({ draft, entity, changedSince, onRestore, onDiscard }: DraftOfferProps) {
  const i18n = useI18n();
  const { t } = i18n;
  return (
    <Alert color="blue" variant="light" title={t('drafts.offerTitle')} role="region">
      <Stack gap="xs">
        <Text size="sm">{t('drafts.offerText', { time: draftTime(draft.savedAt, i18n.locale) })}</Text>
        {changedSince ? <Text size="sm">{t('drafts.offerChanged', { entity })}</Text> : null}
        {draft.files.length > 0 ? (
          <Text size="sm">{t('drafts.offerFiles', { files: listOf(draft.files, i18n.locale) })}</Text>
        ) : null}
        <Group gap="sm">
          <Button size="xs" onClick={onRestore}>
            {t('drafts.restore')}
          </Button>
          <Button size="xs" variant="default" onClick={onDiscard}>
            {t('drafts.discard')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** `10:42` for a draft of today, else the date too: "from 10:42" reads wrong of last Tuesday. */
export function draftTime(savedAt: number, locale: string, now = new Date()): string {
  const saved = new Date(savedAt);
  const today = saved.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(
    locale,
    today ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  ).format(saved);
}

function listOf(items: readonly string[], locale: string): string {
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(items);
}
