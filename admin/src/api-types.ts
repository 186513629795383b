/** What the plugin's admin routes answer, from the schemas the routes declare (type-only: no zod in the admin bundle). */
import type { Modules } from '@strapi/strapi';
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/features/comments/admin-comments.shapes';
import type * as settings from '../../server/src/platform/config/settings.shapes';
import type * as places from '../../server/src/features/admin-places/admin-places.shapes';

export type CommentStatus = ModeratedComment['status'];
export type ModeratedComment = z.infer<typeof shapes.moderatedComment>;
export type ModerationList = z.infer<typeof shapes.moderationList>;

export type CaptchaType = z.infer<typeof settings.captchaType>;
export type AdminSettings = z.infer<typeof settings.adminSettings>;
export type SettingsResponse = z.infer<typeof settings.settingsResponse>;
export type SettingsBody = z.input<typeof settings.settingsBody>;

export type ModerationQueue = z.infer<typeof places.moderationQueueResponse>['data'];
export type MostRead = z.infer<typeof places.mostReadResponse>;
export type EditPanelFigures = z.infer<typeof places.editPanelResponse>['data'];

export type { CommentEvent } from '../../server/src/features/comments/comment-vocabulary';
/** A webhook as the host's admin API (`/admin/webhooks`) answers it. */
export type Webhook = Modules.WebhookStore.Webhook;
