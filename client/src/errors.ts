/** The error a call throws on a non-2xx answer, carrying Strapi's `error` object. */

/** A non-2xx answer, carrying Strapi's `error` object. */
export class CmsBagError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorName?: string,
    readonly details?: unknown
  ) {
    super(message);
    this.name = 'CmsBagError';
  }
}

/** Strapi's error body `{ data: null, error: { status, name, message, details } }` as a `CmsBagError`. */
export const readError = async (response: Response): Promise<CmsBagError> => {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string; name?: string; details?: unknown } } | null;
  return new CmsBagError(response.status, body?.error?.message ?? response.statusText, body?.error?.name, body?.error?.details);
};
