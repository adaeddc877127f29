import { Kbd, Modal, Table, Text } from '@mantine/core';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { shortcuts } from '../i18n/en/shortcuts';
import { useI18n } from '../i18n/I18nProvider';

addEnglish('shortcuts', shortcuts);
addEnglish('form', formMessages);

/** The help `?` opens: every shortcut of the client, and when they work. */
export default function ShortcutsHelp({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const rows: Array<[keys: string[], what: string]> = [
    [['?'], t('shortcuts.help')],
    [['/'], t('shortcuts.search')],
    [['n'], t('shortcuts.create')],
    [['e'], t('shortcuts.edit')],
    [['Ctrl', 'K'], t('shortcuts.everywhere')],
    [['Esc'], t('shortcuts.close')],
  ];
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('shortcuts.title')}
      closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
    >
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([keys, what]) => (
            <Table.Tr key={keys.join('+')}>
              <Table.Td style={{ whiteSpace: 'nowrap', width: '1%', paddingInlineEnd: 24 }}>
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 ? ' + ' : null}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed" mt="sm">
        {t('shortcuts.note')}
      </Text>
    </Modal>
  );
}
