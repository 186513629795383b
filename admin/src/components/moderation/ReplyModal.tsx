/** Reply as the site to one comment: published at once with the site badge. */
import * as React from 'react';
import { Box, Button, Field, Modal, Textarea, Typography } from '@strapi/design-system';
import type { ModeratedComment } from '../../api-types';
import type { Translate } from '../../hooks/useModerationText';

interface Props {
  t: Translate;
  replyTo: ModeratedComment | null;
  reply: string;
  busy: boolean;
  onChange: (reply: string) => void;
  onClose: () => void;
  onSend: () => void;
}

export const ReplyModal = ({ t, replyTo, reply, busy, onChange, onClose, onSend }: Props) => (
  <Modal.Root open={replyTo !== null} onOpenChange={(open: boolean) => !open && onClose()}>
    <Modal.Content>
      <Modal.Header>
        <Modal.Title>{t('moderation.reply.title', 'Reply as the site')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Typography variant="pi" textColor="neutral600" tag="p">
          {replyTo?.content}
        </Typography>
        <Box paddingTop={4}>
          <Field.Root name="reply" id="reply" hint={t('moderation.reply.hint', 'Published at once with the site badge.')}>
            <Field.Label>{t('moderation.reply.label', 'Reply')}</Field.Label>
            <Textarea name="reply" value={reply} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => onChange(e.target.value)} />
            <Field.Hint />
          </Field.Root>
        </Box>
      </Modal.Body>
      <Modal.Footer>
        <Modal.Close>
          <Button variant="tertiary">{t('moderation.cancel', 'Cancel')}</Button>
        </Modal.Close>
        <Button onClick={onSend} disabled={!reply.trim() || busy}>
          {t('moderation.reply.send', 'Publish reply')}
        </Button>
      </Modal.Footer>
    </Modal.Content>
  </Modal.Root>
);
