import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { humanize, type ListScreen } from '@ninefold/spec';
import { screensOf } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useI18n } from '../i18n/I18nProvider';
import { DashboardTile } from '../list/DashboardTile';
import type { ScreenProps } from './screen-props';

/** A dashboard of point 2: one tile per list screen it names, each with its count and a link to it. */
export default function DashboardScreen({ screen }: ScreenProps<'dashboard'>) {
  const { model } = useSpec();
  const { t } = useI18n();
  const title = screen.title ?? humanize(screen.name);
  useDocumentTitle(title);
  const screens = screensOf(model);
  // A tile names a list screen; a name that is not one is reported by the check, not guessed at here.
  const tiles = screen.tiles
    .map((name) => screens.find((candidate) => candidate.name === name))
    .filter((candidate): candidate is ListScreen => candidate?.kind === 'list');
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      {screen.description ? <Text c="dimmed">{screen.description}</Text> : null}
      {tiles.length === 0 ? (
        <Text>{t('list.tilesEmpty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {tiles.map((tile) => (
            <DashboardTile key={tile.name} screen={tile} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
