/** Inputs of the homepage widgets' and the side panel's admin routes, checked against their shapes. */
import { editPanelParamsShape, mostReadQueryShape } from './admin-places.shapes';
import { isRecord } from '../../platform/is-record';
import { parseShape } from '../../platform/shapes/parse';

/** `?locale=`: absent or empty leaves the host's default locale to the service. */
export const validateMostReadQuery = (query: unknown): { locale?: string } => {
  const { locale } = parseShape(mostReadQueryShape, isRecord(query) ? query : {}, { first: true });
  return { locale: locale === '' ? undefined : locale };
};

export const validateEditPanelRequest = (params: unknown, query: unknown) => ({
  ...parseShape(editPanelParamsShape, isRecord(params) ? params : {}, { first: true }),
  ...validateMostReadQuery(query),
});
