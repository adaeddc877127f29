import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { visibleControls } from '../app/link-policy';
import { useSpec } from '../app/SpecContext';
import { nameKey, PEOPLE } from '../form/query-keys';
import { useSession } from '../session/SessionContext';
import { labelOf } from './display-props';
import { ownName } from './reference-access';

/**
 * A person field's value ("Entered by", `user.id` set on create): the person's name, else email, where
 * the API names people (the prototype API's people call) or the person is the one signed in; else the
 * id as stored. The id stays in the title, for whoever needs it.
 */
export default function PersonDisplay({ id }: { id: string }) {
  const session = useSession();
  const { data } = useSpec();
  const own = ownName(session, id);
  const named = useQuery({
    queryKey: nameKey(PEOPLE, id),
    queryFn: async () =>
      (await (await import('../data/names-reader')).namesReaderFor(data)?.read({ kind: 'people' }, id)) ??
      null,
    enabled: own === undefined && data.names !== undefined,
    retry: false,
  });
  const name = own ?? (named.data === null || named.data === undefined ? undefined : labelOf(named.data));
  return (
    <Text span aria-busy={named.isLoading || undefined} title={name === undefined ? undefined : id}>
      {visibleControls(name ?? id)}
    </Text>
  );
}
