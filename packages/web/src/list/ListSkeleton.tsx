import { Skeleton, Stack, VisuallyHidden } from '@mantine/core';

/** The first load of a list: the shape of rows to come, and the same news in words for screen readers. */
export function ListSkeleton({ label, rows = 6 }: { label: string; rows?: number }) {
  return (
    <Stack gap="xs" role="status" aria-live="polite">
      <VisuallyHidden>{label}</VisuallyHidden>
      {Array.from({ length: rows }, (_, index) => (
        // Placeholders have no identity; their number never changes while shown.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Skeleton key={index} height={36} radius="sm" aria-hidden="true" />
      ))}
    </Stack>
  );
}
