import { serverUrl } from './server-url';

describe('serverUrl', () => {
  it.each([
    ['an absolute server.url, as it is', { url: 'https://cms.example.com', host: '0.0.0.0', port: 1337 }, 'https://cms.example.com'],
    ['an absolute server.url with a path, without its trailing slash', { url: 'https://example.com/cms/', host: '10.0.0.5', port: 80 }, 'https://example.com/cms'],
    ['host and port without server.url', { url: '', host: '10.0.0.5', port: 8080 }, 'http://10.0.0.5:8080'],
    ['a host name', { host: 'cms.internal', port: '1338' }, 'http://cms.internal:1338'],
    ['0.0.0.0 as localhost', { url: '', host: '0.0.0.0', port: 1337 }, 'http://localhost:1337'],
    [':: as localhost', { host: '::', port: 1337 }, 'http://localhost:1337'],
    ['an IPv6 host in brackets', { host: '::1', port: 1337 }, 'http://[::1]:1337'],
    ['a relative server.url as the path under host and port', { url: '/cms', host: '127.0.0.1', port: 1337 }, 'http://127.0.0.1:1337/cms'],
    ['a relative server.url without its leading slash', { url: 'cms/', host: '127.0.0.1', port: 1337 }, 'http://127.0.0.1:1337/cms'],
    ['nothing configured as the host defaults', {}, 'http://localhost:1337'],
  ])('gives %s', (_, server, expected) => {
    expect(serverUrl(server)).toBe(expected);
  });
});
