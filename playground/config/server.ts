export default ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  // The host's public URL: feeds, sitemaps and mails put it before uploads and the API's own routes (never the
  // request's Host). Set PUBLIC_URL to where readers reach this server; an empty one means its host and port.
  url: env('PUBLIC_URL', `http://localhost:${env.int('PORT', 1337)}`),
  // Behind a load balancer or reverse proxy: trust X-Forwarded-For so ctx.request.ip is the client's address;
  // maxIpsCount: how many proxies append to it (the addresses before those are the client's to forge). Default 1:
  // 0 would make koa take the leftmost entry, which the client writes, so every per-IP limit could be forged.
  proxy: { koa: env.bool('PROXY_TRUST', false), maxIpsCount: env.int('PROXY_MAX_IPS', 1) },
  app: { keys: env.array('APP_KEYS') },
});
