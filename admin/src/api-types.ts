/** What the plugin's admin routes answer, from the schemas the routes declare (type-only: no zod in the admin bundle). */
import type { Modules } from '@strapi/strapi';
import type { z } from 'zod/v4';
import type * as shapes from '../../server/src/domain/shapes/admin';
import type * as places from '../../server/src/domain/shapes/places';

export type CommentStatus = ModeratedComment['status'];
export type ModeratedComment = z.infer<typeof shapes.moderatedComment>;
export type ModerationList = z.infer<typeof shapes.moderationList>;

export type CaptchaType = z.infer<typeof shapes.captchaType>;
export type AdminSettings = z.infer<typeof shapes.adminSettings>;
export type SettingsResponse = z.infer<typeof shapes.settingsResponse>;
export type SettingsBody = z.input<typeof shapes.settingsBody>;

export type ModerationQueue = z.infer<typeof places.moderationQueueResponse>['data'];
export type MostRead = z.infer<typeof places.mostReadResponse>;
export type EditPanelFigures = z.infer<typeof places.editPanelResponse>['data'];

export type { CommentEvent } from '../../server/src/domain/comments';
/** A webhook as the host's admin API (`/admin/webhooks`) answers it. */
export type Webhook = Modules.WebhookStore.Webhook;
