/**
 * The `comment-events` service: the one place that says what happened to a comment (created, approved, rejected,
 * deleted), after the write has been made. Whatever must follow a comment's life (webhooks, follower mails) listens
 * here instead of hooking each write path. Listeners run after the answer's write and never fail it: an error is
 * logged and the other listeners still run.
 */
import type { Core } from '@strapi/strapi';

export type CommentEvent =
  | { type: 'created'; documentId: string; status: 'pending' | 'approved' | 'rejected' }
  | { type: 'approved' | 'rejected'; documentIds: string[] }
  | { type: 'deleted'; documentId: string };

export type CommentEventListener = (event: CommentEvent) => Promise<void> | void;

const commentEvents = ({ strapi }: { strapi: Core.Strapi }) => {
  const listeners: CommentEventListener[] = [];
  return {
    /** Adds a listener; returns the function that removes it. */
    on(listener: CommentEventListener): () => void {
      listeners.push(listener);
      return () => {
        const at = listeners.indexOf(listener);
        if (at >= 0) listeners.splice(at, 1);
      };
    },

    /** Tells every listener, one after the other. */
    async emit(event: CommentEvent): Promise<void> {
      for (const listener of [...listeners]) {
        try {
          await listener(event);
        } catch (error) {
          strapi.log.error(`[cms-plugin-bag] a comment event listener failed (${event.type}): ${(error as Error).message}`);
        }
      }
    },
  };
};

export type CommentEventsService = ReturnType<typeof commentEvents>;
export default commentEvents;
