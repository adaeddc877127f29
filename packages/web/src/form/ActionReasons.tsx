import { Stack, Text } from '@mantine/core';
import { useI18n } from '../i18n/I18nProvider';

/** Why one disabled action cannot be taken; `id` is what its button's `aria-describedby` names. */
export interface ActionReason {
  id: string;
  /** The action's label, as on its button. */
  action: string;
  text: string;
}

/**
 * The reasons for disabled actions, as visible text next to their buttons: a tooltip would need a hover
 * or a focus, which a disabled button never gets from a keyboard or a touch.
 */
export function ActionReasons({ reasons }: { reasons: readonly ActionReason[] }) {
  const { t } = useI18n();
  if (reasons.length === 0) return null;
  return (
    <Stack gap={2}>
      {reasons.map((reason) => (
        <Text key={reason.id} id={reason.id} size="sm" c="dimmed">
          {t('access.reasonFor', { action: reason.action, reason: reason.text })}
        </Text>
      ))}
    </Stack>
  );
}
