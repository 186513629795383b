/** The interface strings in each locale of the site; content comes translated from Strapi. */
export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

const en = {
  skip: 'Skip to content',
  home: 'Home',
  blog: 'Blog',
  search: 'Search',
  searchLabel: 'Search articles',
  searchButton: 'Search',
  account: 'Account',
  language: 'Language',
  mainMenu: 'Main menu',
  pinned: 'Pinned',
  latest: 'Latest articles',
  allArticles: 'All articles',
  categories: 'Categories',
  tags: 'Tags',
  category: 'Category',
  tag: 'Tag',
  readingTime: (minutes: number) => `${minutes} min read`,
  published: 'Published',
  by: 'by',
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, count: number) => `Page ${page} of ${count}`,
  noArticles: 'No article here yet.',
  searchResults: (q: string) => `Results for “${q}”`,
  searchCount: (n: number) => (n === 1 ? '1 article found' : `${n} articles found`),
  searchNone: 'No article matches. Try other words.',
  searchEmpty: 'Type a few words to search the articles.',
  searchTooLong: 'Searches are at most 200 characters.',
  searchSuggestions: 'Suggestions',
  searchFacetCategory: 'Categories',
  searchFacetTag: 'Tags',
  notFoundTitle: 'Page not found',
  notFoundText: 'This page does not exist, or not any more.',
  backHome: 'Back to the home page',
  errorTitle: 'Something went wrong',
  errorText: 'The content could not be loaded just now. Please try again in a moment.',
  tryAgain: 'Try again',
  comments: 'Comments',
  commentCount: (n: number) => (n === 1 ? '1 comment' : `${n} comments`),
  related: 'Related articles',
  popular: 'Most read this week',
  feed: 'RSS feed',
  footer: 'Built with Astro on cms-plugin-bag.',
  otherLanguages: 'Also in',
  blogDescription: 'Every article, newest first.',
  homeDescription: 'News, technique and notes from the team.',
  categoryDescription: (title: string) => `Articles in ${title}.`,
  newsletter: {
    heading: 'Newsletters', help: 'New articles in your inbox. We send a link to confirm your address first.', email: 'Your e-mail address',
    choose: 'Newsletters', subscribe: 'Subscribe', sending: 'Sending…', pickOne: 'Choose at least one newsletter.',
    invalid: 'Check the e-mail address and try again.', tooMany: 'Too many attempts. Wait a few minutes and try again.',
    network: 'The server could not be reached. Check your connection and try again.', unknown: 'Something went wrong. Please try again.',
  },
  tagDescription: (title: string) => `Articles tagged ${title}.`,
};
export type Strings = typeof en;

const fr: Strings = {
  skip: 'Aller au contenu',
  home: 'Accueil',
  blog: 'Blog',
  search: 'Recherche',
  searchLabel: 'Rechercher des articles',
  searchButton: 'Rechercher',
  account: 'Compte',
  language: 'Langue',
  mainMenu: 'Menu principal',
  pinned: 'À la une',
  latest: 'Derniers articles',
  allArticles: 'Tous les articles',
  categories: 'Catégories',
  tags: 'Étiquettes',
  category: 'Catégorie',
  tag: 'Étiquette',
  readingTime: (minutes) => `${minutes} min de lecture`,
  published: 'Publié le',
  by: 'par',
  previous: 'Précédente',
  next: 'Suivante',
  pageOf: (page, count) => `Page ${page} sur ${count}`,
  noArticles: 'Pas encore d’article ici.',
  searchResults: (q) => `Résultats pour « ${q} »`,
  searchCount: (n) => (n <= 1 ? `${n} article trouvé` : `${n} articles trouvés`),
  searchNone: 'Aucun article ne correspond. Essayez d’autres mots.',
  searchEmpty: 'Tapez quelques mots pour chercher dans les articles.',
  searchTooLong: 'Une recherche fait au plus 200 caractères.',
  searchSuggestions: 'Suggestions',
  searchFacetCategory: 'Catégories',
  searchFacetTag: 'Étiquettes',
  notFoundTitle: 'Page introuvable',
  notFoundText: 'Cette page n’existe pas, ou plus.',
  backHome: 'Retour à l’accueil',
  errorTitle: 'Un problème est survenu',
  errorText: 'Le contenu n’a pas pu être chargé. Réessayez dans un instant.',
  tryAgain: 'Réessayer',
  comments: 'Commentaires',
  commentCount: (n) => (n <= 1 ? `${n} commentaire` : `${n} commentaires`),
  related: 'Articles liés',
  popular: 'Les plus lus cette semaine',
  feed: 'Flux RSS',
  footer: 'Construit avec Astro sur cms-plugin-bag.',
  otherLanguages: 'Aussi en',
  blogDescription: 'Tous les articles, du plus récent au plus ancien.',
  homeDescription: 'Actualités, technique et notes de l’équipe.',
  categoryDescription: (title) => `Articles de la catégorie ${title}.`,
  newsletter: {
    heading: 'Lettres d’information', help: 'Les nouveaux articles dans votre boîte. Nous envoyons d’abord un lien pour confirmer votre adresse.', email: 'Votre adresse e-mail',
    choose: 'Lettres d’information', subscribe: 'S’abonner', sending: 'Envoi…', pickOne: 'Choisissez au moins une lettre.',
    invalid: 'Vérifiez l’adresse e-mail et réessayez.', tooMany: 'Trop de tentatives. Attendez quelques minutes puis réessayez.',
    network: 'Le serveur est injoignable. Vérifiez votre connexion et réessayez.', unknown: 'Un problème est survenu. Veuillez réessayer.',
  },
  tagDescription: (title) => `Articles avec l’étiquette ${title}.`,
};

export const STRINGS: Record<Locale, Strings> = { en, fr };
export const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français' };
export const OG_LOCALES: Record<Locale, string> = { en: 'en_US', fr: 'fr_FR' };

export const isLocale = (value: string | undefined): value is Locale => LOCALES.includes(value as Locale);

/** The path of `rest` (starting with `/`) in `locale`: English unprefixed, the others under `/fr/…`. */
export const localePath = (locale: Locale, rest = '/') =>
  locale === DEFAULT_LOCALE ? rest : rest === '/' ? `/${locale}` : `/${locale}${rest}`;

export const formatDate = (locale: Locale, iso: string | null | undefined) =>
  iso ? new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso)) : '';

/** The comment thread's and the account's strings, handed to their scripts as JSON. */
export const THREAD_STRINGS = {
  en: {
    heading: 'Comments', none: 'No comment yet. Be the first.', yourComment: 'Your comment (Markdown)', post: 'Post comment',
    reply: 'Reply', replyTo: (name: string) => `Reply to ${name}`, yourReply: 'Your reply (Markdown)', postReply: 'Post reply', cancel: 'Cancel', guest: 'guest', deleted: 'This comment was deleted.',
    published: 'Your comment is published.', pending: 'Thanks! Your comment is waiting for moderation.', closed: 'Comments are closed for this article.',
    tooFast: 'You are posting too fast. Please wait a moment and try again.', signIn: 'Please sign in to comment.', invalid: 'Your comment could not be posted: check its length and links.',
    network: 'The comment could not be sent. Check your connection and try again.', noscript: 'Comments need JavaScript to post.', signInLink: 'Sign in', site: 'site',
    edit: 'Edit', remove: 'Delete', save: 'Save', editLabel: 'Edit your comment', removeConfirm: 'Delete your comment?', removed: 'Your comment was deleted.',
    updated: 'Your comment was updated.', updatedPending: 'Your comment was updated; it waits for moderation again.', editWindow: 'The time to edit this comment is over.',
    likes: '{n} likes', likesOne: '{n} like', moreComments: 'Show more comments', loading: 'Loading…', loadFailed: 'The comments could not be loaded. Check your connection and try again.',
    shownComments: '{n} more comments shown.', shownCommentsOne: '{n} more comment shown.', shownReplies: '{n} more replies shown.', shownRepliesOne: '{n} more reply shown.',
    showReplies: 'Show {n} replies', showRepliesOne: 'Show {n} reply', moreReplies: 'Show {n} more replies', moreRepliesOne: 'Show {n} more reply',
  },
  fr: {
    heading: 'Commentaires', none: 'Pas encore de commentaire. Soyez le premier.', yourComment: 'Votre commentaire (Markdown)', post: 'Publier le commentaire',
    reply: 'Répondre', replyTo: (name: string) => `Répondre à ${name}`, yourReply: 'Votre réponse (Markdown)', postReply: 'Publier la réponse', cancel: 'Annuler', guest: 'invité', deleted: 'Ce commentaire a été supprimé.',
    published: 'Votre commentaire est publié.', pending: 'Merci ! Votre commentaire attend la modération.', closed: 'Les commentaires sont fermés pour cet article.',
    tooFast: 'Vous publiez trop vite. Attendez un instant puis réessayez.', signIn: 'Connectez-vous pour commenter.', invalid: 'Votre commentaire n’a pas pu être publié : vérifiez sa longueur et ses liens.',
    network: 'Le commentaire n’a pas pu être envoyé. Vérifiez votre connexion et réessayez.', noscript: 'Publier un commentaire demande JavaScript.', signInLink: 'Se connecter', site: 'site',
    edit: 'Modifier', remove: 'Supprimer', save: 'Enregistrer', editLabel: 'Modifier votre commentaire', removeConfirm: 'Supprimer votre commentaire ?', removed: 'Votre commentaire a été supprimé.',
    updated: 'Votre commentaire a été modifié.', updatedPending: 'Votre commentaire a été modifié ; il attend de nouveau la modération.', editWindow: 'Le délai pour modifier ce commentaire est passé.',
    likes: '{n} j’aime', likesOne: '{n} j’aime', moreComments: 'Afficher plus de commentaires', loading: 'Chargement…', loadFailed: 'Les commentaires n’ont pas pu être chargés. Vérifiez votre connexion et réessayez.',
    shownComments: '{n} commentaires de plus affichés.', shownCommentsOne: '{n} commentaire de plus affiché.', shownReplies: '{n} réponses de plus affichées.', shownRepliesOne: '{n} réponse de plus affichée.',
    showReplies: 'Afficher {n} réponses', showRepliesOne: 'Afficher {n} réponse', moreReplies: 'Afficher {n} réponses de plus', moreRepliesOne: 'Afficher {n} réponse de plus',
  },
};

/**
 * The thread's reader actions (scripts/thread-actions.ts): likes, reports, following by mail, loading and refusals,
 * the author's comments waiting for moderation. REPORT_REASONS must equal the plugin's `comments.reports.reasons`
 * (docs/comments.md#likes-and-reports; the default list), the public API does not publish it.
 */
export const REPORT_REASONS = ['spam', 'abuse', 'off-topic', 'other'];
export const THREAD_ACTION_STRINGS: Record<Locale, Record<string, string>> = {
  en: {
    working: 'Working…', sending: 'Sending…', saving: 'Saving…', signedOut: 'Your session has ended. Please sign in again.', gone: 'This comment is no longer available.',
    like: 'Like', liked: 'You like this comment.', unliked: 'You no longer like this comment.', report: 'Report', reportReason: 'Why report this comment?', sendReport: 'Send report',
    reported: 'Thank you: the comment was reported to the moderators.', 'reason:spam': 'Spam', 'reason:abuse': 'Abuse', 'reason:off-topic': 'Off topic', 'reason:other': 'Other',
    follow: 'Follow by e-mail', unfollow: 'Stop following', following: 'You get an e-mail for each new comment here.', notFollowing: 'You do not follow this thread.',
    followed: 'You now follow this thread by e-mail.', unfollowed: 'You no longer follow this thread.', you: 'You', awaiting: 'Waiting for moderation',
    signInToReact: 'Sign in to like, report or follow comments',
  },
  fr: {
    working: 'En cours…', sending: 'Envoi…', saving: 'Enregistrement…', signedOut: 'Votre session a pris fin. Reconnectez-vous.', gone: 'Ce commentaire n’est plus disponible.',
    like: 'J’aime', liked: 'Vous aimez ce commentaire.', unliked: 'Vous n’aimez plus ce commentaire.', report: 'Signaler', reportReason: 'Pourquoi signaler ce commentaire ?', sendReport: 'Envoyer le signalement',
    reported: 'Merci : le commentaire a été signalé aux modérateurs.', 'reason:spam': 'Spam', 'reason:abuse': 'Abus', 'reason:off-topic': 'Hors sujet', 'reason:other': 'Autre',
    follow: 'Suivre par e-mail', unfollow: 'Ne plus suivre', following: 'Vous recevez un e-mail pour chaque nouveau commentaire ici.', notFollowing: 'Vous ne suivez pas cette discussion.',
    followed: 'Vous suivez maintenant cette discussion par e-mail.', unfollowed: 'Vous ne suivez plus cette discussion.', you: 'Vous', awaiting: 'En attente de modération',
    signInToReact: 'Connectez-vous pour aimer, signaler ou suivre les commentaires',
  },
};
