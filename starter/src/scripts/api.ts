/**
 * The typed client in the browser, loaded on demand (a dynamic import: pages that never call it never load it),
 * with the session kept in localStorage so the thread and the account share one sign-in.
 */
export async function browserClient(baseUrl: string, locale?: string) {
  const { createClient, localStorageAdapter } = await import('cms-plugin-bag/client');
  return createClient({ baseUrl, locale, storage: localStorageAdapter() });
}

/** Whether a stored session exists, without loading the client. */
export const hasSession = () => {
  try {
    return Boolean(localStorage.getItem('cms-bag:refreshToken') || localStorage.getItem('cms-bag:jwt'));
  } catch {
    return false;
  }
};

export const errorStatus = (error: unknown) => (error && typeof error === 'object' && 'status' in error ? Number((error as { status: number }).status) : 0);
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
