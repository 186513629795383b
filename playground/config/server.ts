export default ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  url: env('PUBLIC_URL', ''),
  // Behind a load balancer or reverse proxy: trust X-Forwarded-For so ctx.request.ip is the client's address.
  proxy: { koa: env.bool('PROXY_TRUST', false) },
  app: { keys: env.array('APP_KEYS') },
});
