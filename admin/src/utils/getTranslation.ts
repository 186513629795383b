import { PLUGIN_ID } from '../pluginId';

/** The prefixed id registerTrads gives every key of translations/*.json. */
export const getTranslation = (id: string) => `${PLUGIN_ID}.${id}`;
