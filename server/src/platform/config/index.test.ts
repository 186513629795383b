import config from '.';

describe('the config module Strapi loads', () => {
  it('leaves lists out of the defaults, so a configured list replaces the default instead of merging into it', () => {
    const reports = (config.default as any).comments.reports;
    expect(reports).toMatchObject({ enabled: true, threshold: 3 });
    expect(reports).not.toHaveProperty('reasons');
    expect((config.default as any).comments.notifications.moderators).not.toHaveProperty('emails');
  });

  it('has a validator that throws (Strapi ignores a returned value)', () => {
    expect(() => config.validator({ feeds: { size: 101 } })).toThrow('feeds.size');
    expect(config.validator({})).toBeUndefined();
  });
});
