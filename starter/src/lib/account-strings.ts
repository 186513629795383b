/** The account page's strings (views/Account.astro hands them to scripts/account.ts). */
export const ACCOUNT_STRINGS = {
  en: {
    signIn: 'Sign in', identifier: 'Username or e-mail', password: 'Password', captcha: 'Characters in the image', newCaptcha: 'Another image',
    mfaCode: 'Code from your authenticator app (or a recovery code)', verify: 'Verify',
    register: 'Create an account', email: 'E-mail', sendCode: 'Send me a code', code: 'Code from the e-mail', username: 'Username', createAccount: 'Create account',
    codeSent: 'A code was sent to your address. It is valid for a few minutes.',
    signedInAs: 'Signed in as {name}', signOut: 'Sign out', sessions: 'Where you are signed in', thisBrowser: 'this browser', unknownDevice: 'Unknown device',
    endSession: 'End this session', endOthers: 'Sign out everywhere else', endedOthers: 'Signed out of {n} other sessions.', since: 'since',
    export: 'Download my data', exportReady: 'Your data was downloaded as my-account.json.',
    deleteHeading: 'Delete my account', deleteButton: 'Delete my account for good', deleteConfirm: 'Delete your account for good? This cannot be undone.', deleted: 'Your account was deleted.',
    signedOut: 'You are signed out.', loading: 'Loading…',
    errors: {
      credentials: 'The username or the password is wrong.', captcha: 'Type the characters shown in the image.', tooMany: 'Too many attempts. Wait a few minutes and try again.',
      code: 'That code is wrong or has expired.', password: 'The password is wrong.', taken: 'That username or e-mail is already used.', invalid: 'Check the fields and try again.',
      network: 'The server could not be reached. Check your connection and try again.', session: 'Your session has ended. Please sign in again.', unknown: 'Something went wrong. Please try again.',
      passwordRules: 'Choose a longer password (at least 8 characters).',
    },
  },
  fr: {
    signIn: 'Se connecter', identifier: 'Nom d’utilisateur ou e-mail', password: 'Mot de passe', captcha: 'Caractères de l’image', newCaptcha: 'Une autre image',
    mfaCode: 'Code de votre application d’authentification (ou un code de secours)', verify: 'Vérifier',
    register: 'Créer un compte', email: 'E-mail', sendCode: 'M’envoyer un code', code: 'Code reçu par e-mail', username: 'Nom d’utilisateur', createAccount: 'Créer le compte',
    codeSent: 'Un code a été envoyé à votre adresse. Il est valable quelques minutes.',
    signedInAs: 'Connecté en tant que {name}', signOut: 'Se déconnecter', sessions: 'Où vous êtes connecté', thisBrowser: 'ce navigateur', unknownDevice: 'Appareil inconnu',
    endSession: 'Fermer cette session', endOthers: 'Se déconnecter partout ailleurs', endedOthers: '{n} autres sessions fermées.', since: 'depuis',
    export: 'Télécharger mes données', exportReady: 'Vos données ont été téléchargées (my-account.json).',
    deleteHeading: 'Supprimer mon compte', deleteButton: 'Supprimer définitivement mon compte', deleteConfirm: 'Supprimer votre compte pour de bon ? C’est irréversible.', deleted: 'Votre compte a été supprimé.',
    signedOut: 'Vous êtes déconnecté.', loading: 'Chargement…',
    errors: {
      credentials: 'Le nom d’utilisateur ou le mot de passe est incorrect.', captcha: 'Tapez les caractères de l’image.', tooMany: 'Trop de tentatives. Attendez quelques minutes puis réessayez.',
      code: 'Ce code est incorrect ou a expiré.', password: 'Le mot de passe est incorrect.', taken: 'Ce nom d’utilisateur ou cet e-mail est déjà utilisé.', invalid: 'Vérifiez les champs puis réessayez.',
      network: 'Le serveur est injoignable. Vérifiez votre connexion puis réessayez.', session: 'Votre session a pris fin. Reconnectez-vous.', unknown: 'Un problème est survenu. Réessayez.',
      passwordRules: 'Choisissez un mot de passe plus long (au moins 8 caractères).',
    },
  },
};
