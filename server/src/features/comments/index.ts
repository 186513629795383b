/** Comments (threads, likes and reports, follows and unsubscribes, moderation): what the wiring and other features use. */
export { default as adminCommentsController } from './admin-comments.controller';
export { default as adminCommentsRoutes } from './admin-comments.routes';
export { closing } from './closing';
export {
  commentClientInfo,
  commentDelete,
  commentEvents,
  commentMarkdown,
  commentNotifications,
  commentStatus,
  forgetFeedback,
  quietCommentWrites,
} from './comment-writes.document-middleware';
export { default as commentFeedbackController } from './comment-feedback.controller';
export { setLikeRow } from './comment-feedback.data';
export { default as commentFeedbackRoutes } from './comment-feedback.routes';
export { default as commentFollowController } from './comment-follow.controller';
export { default as commentFollowRoutes } from './comment-follow.routes';
export { commentFeedRequest } from './comment-follow.shapes';
export { startCommentHtmlBackfill } from './comment-html';
export { showCommentsByText } from './comment-main-field';
export { default as commentUnsubscribeController } from './comment-unsubscribe.controller';
export { default as commentUnsubscribeRoutes } from './comment-unsubscribe.routes';
export { default as commentsController } from './comments.controller';
export { default as commentsRoutes } from './comments.routes';
export { default as commentsService } from './comments.service';
export { createdComment, cursorPagination, documentRef, nodeAuthor, rootsPageResponse, threadMeta, threadReply, threadRoot } from './comments.shapes';
export { parseIdentifier } from '../../platform/shapes/common';
export { validateCommentBody } from './comments.shapes';
export { registerContentManagerCommentStatus } from './content-manager-comment-status.middleware';
export { default as eventsService } from './events';
export { default as followersService } from './followers';
export { default as notificationsService } from './notifications';
export { escapeHtml } from './notifications';
export { sanitizeRichHtml } from './markdown';
/** The comments' Markdown renderer and sanitizer, which newsletter mails render articles with. */
export { renderCommentMarkdown } from './markdown';
/** The create request's fields (GraphQL's comment input is written from them). */
export { commentInput } from './comments.shapes';
export { default as reactionsService } from './reactions';
export { default as reportsService } from './reports';
export { commentIdsOfArticle, commentSchema, type RawRow } from './tables.data';
export { parseRootsQuery } from './thread';
export { default as threadsService } from './threads';
export { default as unsubscribeTokenMiddleware } from './unsubscribe-token.middleware';
export { emailRevertTokenOf } from './unsubscribe-token.middleware';
export { voterKey } from './voter-key';
