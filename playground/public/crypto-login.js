// Plain WebCrypto, no library: what any front end can do to avoid sending a password in clear text.
const API = '/api/cms-plugin-bag';

const pemToDer = (pem) => {
  const base64 = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
};

const toBase64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)));

async function encryptPassword(password) {
  const { publicKey } = await (await fetch(`${API}/utils/rsa/public-key`)).json();
  const key = await crypto.subtle.importKey('spki', pemToDer(publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  return toBase64(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password)));
}

const result = document.getElementById('result');

document.getElementById('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  result.textContent = 'Encrypting…';
  const encryptedPassword = await encryptPassword(form.get('password'));
  const response = await fetch(`${API}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier: form.get('identifier'), encryptedPassword }),
  });
  const body = await response.json();
  result.dataset.status = String(response.status);
  result.textContent = response.ok
    ? `Logged in as ${body.user.username} (jwt ${body.jwt.length} chars, sent ${encryptedPassword.length} Base64 chars of ciphertext)`
    : `Error ${response.status}: ${body.error.message}`;
});
