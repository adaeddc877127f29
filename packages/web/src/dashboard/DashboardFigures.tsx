import { SimpleGrid } from '@mantine/core';
import { checkFigure, type Figure, figureCondition, findEntity } from '@ninefold/model';
import { useSpec } from '../app/SpecContext';
import { settle } from '../screens/access-policy';
import { useSession } from '../session/SessionContext';
import { FigureCard } from './FigureCard';

/**
 * A dashboard's figures, after its tiles: loaded only by dashboards that have some, since the charts
 * behind them weigh more than the rest of a first screen. Here, with the expression engine at hand, a
 * figure whose condition reads a field the role may not see is left out too.
 */
export default function DashboardFigures({ screen, figures }: { screen: string; figures: Figure[] }) {
  const { model } = useSpec();
  const session = useSession();
  const shown = figures.filter((figure) => {
    const entity = findEntity(model, figure.entity);
    const condition = entity ? figureCondition(model, entity, figure) : undefined;
    if (!entity || !condition) return false;
    return settle(checkFigure(model, session.principal, entity, figure, condition), session).allowed;
  });
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {shown.map((figure) => (
        <FigureCard key={figure.name} screen={screen} figure={figure} />
      ))}
    </SimpleGrid>
  );
}
