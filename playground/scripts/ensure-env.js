#!/usr/bin/env node
/** Writes playground/.env with fresh development secrets on first run; never overwrites an existing one. */
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

const envPath = path.join(__dirname, '..', '.env');
if (fs.existsSync(envPath)) process.exit(0);

const secret = () => crypto.randomBytes(16).toString('base64');
const lines = [
  '# Development secrets, generated on first run. Not committed (see .gitignore).',
  'HOST=0.0.0.0',
  'PORT=1337',
  `APP_KEYS=${[secret(), secret(), secret(), secret()].join(',')}`,
  `API_TOKEN_SALT=${secret()}`,
  `ADMIN_JWT_SECRET=${secret()}`,
  `TRANSFER_TOKEN_SALT=${secret()}`,
  `ENCRYPTION_KEY=${secret()}`,
  `JWT_SECRET=${secret()}`,
  `AES_SECRET=${crypto.randomBytes(32).toString('base64')}`,
  '# SMTP_HOST=127.0.0.1  (unset: mails are written to the log instead of being sent)',
  '',
];
fs.writeFileSync(envPath, lines.join('\n'), { mode: 0o600 });
console.log(`Generated development secrets in ${envPath}`);
