import article from './article';
import category from './category';
import tag from './tag';
import comment from './comment';
import menu from './menu';
import menuItem from './menu-item';
import page from './page';
import banner from './banner';
import refreshToken from './refresh-token';
import captcha from './captcha';
import rateLimit from './rate-limit';
import commentUnsubscribe from './comment-unsubscribe';
import commentReaction from './comment-reaction';
import commentReport from './comment-report';
import mfaFactor from './mfa-factor';
import mfaRecoveryCode from './mfa-recovery-code';
import mfaChallenge from './mfa-challenge';
import passkey from './passkey';
import webauthnChallenge from './webauthn-challenge';
import commentThread from './comment-thread';
import commentSubscription from './comment-subscription';
import redirect from './redirect';
import slugRedirect from './slug-redirect';
import signInDevice from './sign-in-device';
import emailChange from './email-change';

export default {
  article,
  category,
  tag,
  comment,
  menu,
  'menu-item': menuItem,
  page,
  banner,
  'refresh-token': refreshToken,
  captcha,
  'rate-limit': rateLimit,
  'comment-unsubscribe': commentUnsubscribe,
  'comment-reaction': commentReaction,
  'comment-report': commentReport,
  'mfa-factor': mfaFactor,
  'mfa-recovery-code': mfaRecoveryCode,
  'mfa-challenge': mfaChallenge,
  passkey,
  'webauthn-challenge': webauthnChallenge,
  'comment-thread': commentThread,
  'comment-subscription': commentSubscription,
  redirect,
  'slug-redirect': slugRedirect,
  'sign-in-device': signInDevice,
  'email-change': emailChange,
};
