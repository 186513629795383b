export default ({ env }) => ({
  rest: {
    defaultLimit: 25,
    maxLimit: env.int('API_MAX_LIMIT', 100),
    withCount: true,
  },
});
