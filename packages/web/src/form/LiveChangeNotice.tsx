import { Alert } from '@mantine/core';
import { type Field, fieldLabel, type JsonValue } from '@ninefold/model';
import { useLiveChange } from '../app/LiveUpdates';
import { useSpec } from '../app/SpecContext';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { sameValue } from './changed-fields';

addEnglish('form', formMessages);

interface LiveChangeNoticeProps {
  entity: string;
  id: string;
  /** The record the form was opened on: what changed is told against it. */
  base: Record<string, JsonValue>;
  /** The form's fields: only changes to what the person is editing are named. */
  inputs: readonly Field[];
}

/**
 * Tells a person editing a record that someone else changed it meanwhile, and which of the form's
 * fields, before they save: the save will then show both versions (the 412 conflict), and nothing they
 * typed is touched. Their own changes (from this or another tab) are not told.
 */
export function LiveChangeNotice({ entity, id, base, inputs }: LiveChangeNoticeProps) {
  const { model } = useSpec();
  const { t } = useI18n();
  const { state } = useSession();
  const change = useLiveChange(entity, id);
  const me = state.status === 'signed-in' ? state.user.id : undefined;
  if (!change || (me !== undefined && change.by?.id === me)) return null;
  const name = change.by?.name;
  const title = name ? t('form.liveChangedBy', { name }) : t('form.liveChangedBySomeone');
  switch (change.kind) {
    case 'deleted':
      return (
        <Alert color="orange" role="status" title={title}>
          {t('form.liveDeleted', { name: name ?? '' })}
        </Alert>
      );
    case 'hidden':
      return (
        <Alert color="orange" role="status" title={title}>
          {t('form.liveHidden')}
        </Alert>
      );
    case 'created':
    case 'updated':
    case 'changed': {
      const record = change.record;
      if (!record) return null;
      const changed = inputs.filter(
        (field) => field.name in record && !sameValue(model, field, base[field.name], record[field.name]),
      );
      // Only fields this form does not edit changed (a total, a timestamp): nothing to decide.
      if (changed.length === 0) return null;
      return (
        <Alert color="blue" role="status" title={title}>
          {t('form.liveChangedFields', { fields: changed.map((field) => fieldLabel(field)).join(', ') })}
        </Alert>
      );
    }
    default:
      return null;
  }
}
