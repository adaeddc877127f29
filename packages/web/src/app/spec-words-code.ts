// What `loadSpecWords` loads: the model's translation, apart from the first load.
export { translateModel } from '@ninefold/model';
