import { SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { checkFigure, checkScreen, findEntity, humanize, type ListScreen } from '@ninefold/model';
import { lazy, Suspense } from 'react';
import { withLaterStyles } from '../app/later-styles';
import { screensOf } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { Slot } from '../extension/Slot';
import { useI18n } from '../i18n/I18nProvider';
import { DashboardTile } from '../list/DashboardTile';
import { useSession } from '../session/SessionContext';
import { settle } from './access-policy';
import type { ScreenProps } from './screen-props';

const DashboardFigures = lazy(withLaterStyles(() => import('../dashboard/DashboardFigures')));

/**
 * A dashboard of point 2: one tile per list screen it names, each with its count and a link to it;
 * a list the role may not see has no tile (and its count is not asked for). Its figures follow, those
 * the role may be told (see `checkFigure`).
 */
export default function DashboardScreen({ screen }: ScreenProps<'dashboard'>) {
  const { model } = useSpec();
  const session = useSession();
  const { t } = useI18n();
  const title = screen.title ?? humanize(screen.name);
  useDocumentTitle(title);
  const screens = screensOf(model);
  // A tile names a list screen; a name that is not one is reported by the check, not guessed at here.
  const named = screen.tiles
    .map((name) => screens.find((candidate) => candidate.name === name))
    .filter((candidate): candidate is ListScreen => candidate?.kind === 'list');
  const tiles = named.filter(
    (candidate) => settle(checkScreen(model, session.principal, candidate), session).allowed,
  );
  const figures = screen.figures.filter((figure) => {
    const entity = findEntity(model, figure.entity);
    return (
      entity !== undefined && settle(checkFigure(model, session.principal, entity, figure), session).allowed
    );
  });
  const nothing = named.length === 0 && screen.figures.length === 0;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      {screen.description ? <Text c="dimmed">{screen.description}</Text> : null}
      <Slot name="dashboardTiles" slotKey={screen.name} props={{ screen }}>
        {tiles.length > 0 ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {tiles.map((tile) => (
              <DashboardTile key={tile.name} screen={tile} />
            ))}
          </SimpleGrid>
        ) : figures.length === 0 ? (
          <Text>{nothing ? t('list.tilesEmpty') : t('access.tilesNoneForRole')}</Text>
        ) : null}
        {figures.length > 0 ? (
          <Suspense fallback={<Skeleton height={240} aria-hidden="true" />}>
            <DashboardFigures screen={screen.name} figures={figures} />
          </Suspense>
        ) : null}
      </Slot>
    </Stack>
  );
}
