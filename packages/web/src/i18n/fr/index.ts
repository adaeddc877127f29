import type { Catalogue } from '../types';
import { access } from './access';
import { bulk } from './bulk';
import { changes } from './changes';
import { drafts } from './drafts';
import { errors } from './errors';
import { extension } from './extension';
import { feedback } from './feedback';
import { figures } from './figures';
import { form } from './form';
import { importCsv } from './importCsv';
import { importer } from './importer';
import { list } from './list';
import { people } from './people';
import { search } from './search';
import { session } from './session';
import { shell } from './shell';
import { shortcuts } from './shortcuts';
import { views } from './views';

/** French, loaded only by those who read it (see `loadLocale`). */
export const french: Catalogue = {
  shell,
  list,
  form,
  importer,
  access,
  session,
  drafts,
  errors,
  extension,
  search,
  bulk,
  importCsv,
  views,
  feedback,
  shortcuts,
  figures,
  changes,
  people,
};
