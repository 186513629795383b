/** The plugin's admin-panel entry (package export `./strapi-admin`): what the Strapi admin build bundles. */
export { default } from './admin/src';
