/**
 * A failed mail delivery as a log line may show it: the error's code and SMTP status, never its message, since SMTP
 * errors quote the refused recipient (`550 <ada@example.com>: Recipient address rejected`).
 */
export const describeMailFailure = (error: unknown): string => {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const parts = [typeof code === 'string' ? code : (error as Error)?.name ?? 'Error'];
  if (typeof responseCode === 'number') parts.push(`SMTP ${responseCode}`);
  return parts.join(', ');
};
