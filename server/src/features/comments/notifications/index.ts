/** The `comment-notifications` service: when and to whom (scheduling.ts), what the mails say (templates.ts). */
export { default } from './scheduling';
export type { CommentNotificationsService } from './scheduling';
export { escapeHtml, NOTIFICATION_KINDS, type NotificationKind } from './templates';
