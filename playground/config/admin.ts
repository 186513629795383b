export default ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT') } },
  secrets: { encryptionKey: env('ENCRYPTION_KEY') },
  serveAdminPanel: env.bool('SERVE_ADMIN', true),
  autoOpen: false,
  flags: { nps: false, promoteEE: false },
  // The host's limit on admin logins (5 per 5 minutes per address and e-mail); the browser tests that log one admin
  // in more often than that turn it off (ADMIN_RATE_LIMIT=false).
  rateLimit: { enabled: env.bool('ADMIN_RATE_LIMIT', true) },
});
