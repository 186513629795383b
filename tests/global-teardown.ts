/** Once per `jest` run, after every test file: removes the run's template database (tests/global-setup.ts). */
import { removeTemplate } from './helpers/template';

export default async function globalTeardown() {
  await removeTemplate();
}
