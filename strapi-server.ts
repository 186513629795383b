/** The plugin's server entry (package export `./strapi-server`): what Strapi loads on the server. */
export { default } from './server/src';
