export default ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  url: env('PUBLIC_URL', ''),
  // Behind a load balancer or reverse proxy: trust X-Forwarded-For so ctx.request.ip is the client's address;
  // maxIpsCount: how many proxies append to it (the addresses before those are the client's to forge). Default 1:
  // 0 would make koa take the leftmost entry, which the client writes, so every per-IP limit could be forged.
  proxy: { koa: env.bool('PROXY_TRUST', false), maxIpsCount: env.int('PROXY_MAX_IPS', 1) },
  app: { keys: env.array('APP_KEYS') },
});
