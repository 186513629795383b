/**
 * The playground's admin panel: the interface languages an editor may pick in their profile, besides English. The
 * plugin ships French and Simplified Chinese translations (docs/admin.md); a host lists the ones it offers here.
 */
export default {
  config: {
    locales: ['fr', 'zh-Hans'],
  },
  bootstrap() {},
};
