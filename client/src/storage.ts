/** Where the client keeps the jwt and the refresh token: in memory by default, or any store with get/set/remove. */
export interface TokenStorage {
  get(key: string): string | null | Promise<string | null>;
  set(key: string, value: string): void | Promise<void>;
  remove(key: string): void | Promise<void>;
}

/** Tokens live as long as the client object (a page load, a Node process). */
export const memoryStorage = (): TokenStorage => {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key) ?? null,
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
  };
};

/** Browser `localStorage` (or `sessionStorage`, or any Web Storage), keys prefixed so they do not clash. */
export const localStorageAdapter = (storage: Storage = globalThis.localStorage, prefix = 'cms-bag:'): TokenStorage => ({
  get: (key) => storage.getItem(prefix + key),
  set: (key, value) => storage.setItem(prefix + key, value),
  remove: (key) => storage.removeItem(prefix + key),
});
