import adminComment from './admin-comment';
import adminSettings from './admin-settings';
import article from './article';
import auth from './auth';
import banner from './banner';
import category from './category';
import comment from './comment';
import commentUnsubscribe from './comment-unsubscribe';
import commentFeedback from './comment-feedback';
import crypto from './crypto';
import menu from './menu';
import page from './page';
import tag from './tag';

export default {
  'admin-comment': adminComment,
  'admin-settings': adminSettings,
  article,
  auth,
  banner,
  category,
  comment,
  'comment-unsubscribe': commentUnsubscribe,
  'comment-feedback': commentFeedback,
  crypto,
  menu,
  page,
  tag,
};
