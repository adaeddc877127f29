import { Anchor, Text, VisuallyHidden } from '@mantine/core';
import { type MouseEvent, useState } from 'react';
import { linkTarget, visibleControls } from '../app/link-policy';
import { useSpec } from '../app/SpecContext';
import { saveBlob } from '../app/save-blob';
import { isStoredFile } from '../form/form-values';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import type { DisplayProps } from './display-props';
import { textOf } from './display-props';
import { formatBytes } from './format-bytes';

addEnglish('form', formMessages);

/**
 * A stored file: its name and size, and a download link when the API gives an address for it. While
 * someone is signed in, the link fetches the file with the session's credentials (which a plain link
 * cannot send, and which never go in the address) and saves what came back.
 */
export function FileDisplay({ value }: DisplayProps<'file'>) {
  const { t, locale } = useI18n();
  const { data } = useSpec();
  const { state } = useSession();
  const [failure, setFailure] = useState<string>();
  if (!isStoredFile(value)) return <Text span>{textOf(value)}</Text>;
  const text =
    typeof value.size === 'number'
      ? t('form.fileDescription', { name: value.name, size: formatBytes(value.size, locale) })
      : value.name;
  // Only a file of this site is fetched with the session's credentials; a file elsewhere (https only) is
  // a plain link that says it leaves the site, so no token is ever sent to another origin.
  const target = value.url ? linkTarget(value.url, { external: true }) : undefined;
  if (!target) return <Text span>{visibleControls(text)}</Text>;
  if (target.kind === 'external') {
    return (
      <Anchor href={target.href} target="_blank" rel="noopener noreferrer nofollow">
        {visibleControls(text)}
        <span aria-hidden="true"> ↗</span>
        <VisuallyHidden component="span"> ({t('form.leavesSite')})</VisuallyHidden>
      </Anchor>
    );
  }
  const href = target.href;
  const download = data.download;
  const onClick =
    state.status === 'signed-in' && download
      ? (event: MouseEvent<HTMLAnchorElement>) => {
          event.preventDefault();
          setFailure(undefined);
          download(href)
            .then((blob) => saveBlob(blob, value.name))
            .catch((error: unknown) =>
              setFailure(
                t('form.downloadFailed', {
                  name: value.name,
                  reason: error instanceof Error ? error.message : String(error),
                }),
              ),
            );
        }
      : undefined;
  return (
    <>
      <Anchor
        href={href}
        download={value.name}
        aria-label={t('form.download', { name: value.name })}
        {...(onClick ? { onClick } : {})}
      >
        {visibleControls(text)}
      </Anchor>
      {failure ? (
        <Text span c="red" role="alert" ml="xs">
          {failure}
        </Text>
      ) : null}
    </>
  );
}
