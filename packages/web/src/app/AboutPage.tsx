import { Alert, Anchor, List, Stack, Text, Title } from '@mantine/core';
import { POINT_KEYS, type PointKey } from '@ninefold/model';
import { useI18n } from '../i18n/I18nProvider';
import { Link } from './router';
import { IMPORT_PATH } from './routes';
import { SafeMarkdown } from './SafeMarkdown';
import { useSpec } from './SpecContext';
import { useDocumentTitle } from './useDocumentTitle';

/**
 * What the client is and, as plainly, what its specification leaves out: the honest page that a
 * specification with nothing shown is reduced to.
 */
export function AboutPage({ asHome = false }: { asHome?: boolean }) {
  const { model, api } = useSpec();
  const { t } = useI18n();
  useDocumentTitle(asHome ? undefined : t('shell.about'));
  const missing = POINT_KEYS.filter((key) => !model[key].shown);
  const product = model.product.shown ? model.product : undefined;
  return (
    <Stack gap="md" maw={760}>
      <Title order={1} size="h2">
        {model.title ?? t('shell.untitled')}
      </Title>
      {product?.summary ? <Text size="lg">{product.summary}</Text> : null}
      {product?.description ? <SafeMarkdown>{product.description}</SafeMarkdown> : null}
      {product && product.audience.length > 0 ? (
        <Text>
          <strong>{t('shell.audience')}:</strong> {product.audience.join(', ')}
        </Text>
      ) : null}
      <Text c="dimmed" data-testid="coverage">
        {t('shell.coverage', { shown: 9 - missing.length })}
      </Text>
      {api.conventional && model.entities.shown ? (
        <Alert color="blue">{t('shell.conventionalCalls')}</Alert>
      ) : null}
      <Title order={2} size="h3">
        {t('shell.notShownTitle')}
      </Title>
      {missing.length === 0 ? (
        <Text>{t('shell.allShown')}</Text>
      ) : (
        <>
          <Text>{t('shell.notShownIntro')}</Text>
          <List aria-label={t('shell.notShownTitle')}>
            {missing.map((key) => (
              <List.Item key={key}>
                <NotShownPoint point={key} />
              </List.Item>
            ))}
          </List>
        </>
      )}
      <Text size="sm">
        <Anchor component={Link} to={IMPORT_PATH}>
          {t('shell.previewLink')}
        </Anchor>
      </Text>
    </Stack>
  );
}

function NotShownPoint({ point }: { point: PointKey }) {
  const { model } = useSpec();
  const { t } = useI18n();
  const value = model[point];
  const reason = value.shown ? undefined : value.reason;
  return (
    <>
      <strong>
        {POINT_KEYS.indexOf(point) + 1}. {t(`shell.point_${point}`)}
      </strong>
      {reason ? <Text size="sm">{t('shell.notShownReason', { reason })}</Text> : null}
    </>
  );
}
