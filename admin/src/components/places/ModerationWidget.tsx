/** Homepage widget "Comments to moderate": how many wait, and the five newest, each opening the moderation page on it. */
import * as React from 'react';
import { Widget, useFetchClient } from '@strapi/strapi/admin';
import { Badge, Box, Flex, Link, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import type { ModerationQueue } from '../../api-types';
import { useModerationText } from '../../hooks/useModerationText';
import { PLUGIN_ID } from '../../pluginId';

/** The moderation page showing pending comments with this one marked. */
export const moderationLink = (commentDocumentId: string) =>
  `/plugins/${PLUGIN_ID}?${new URLSearchParams({ status: 'pending', comment: commentDocumentId })}`;

const DATE_FORMAT = { dateStyle: 'medium', timeStyle: 'short' } as const;

const excerpt = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

const ModerationWidget = () => {
  const t = useModerationText();
  const { formatDate } = useIntl();
  const { get } = useFetchClient();
  const [queue, setQueue] = React.useState<ModerationQueue | null>(null);
  const [failed, setFailed] = React.useState(false);

  React.useEffect(() => {
    get<{ data: ModerationQueue }>(`/${PLUGIN_ID}/widgets/moderation`).then(
      ({ data }) => setQueue(data.data),
      () => setFailed(true)
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (failed) return <Widget.Error />;
  if (!queue) return <Widget.Loading />;
  if (queue.pending === 0) return <Widget.NoData>{t('widget.moderation.empty', 'No comment waits for moderation')}</Widget.NoData>;

  return (
    <Flex direction="column" alignItems="stretch" gap={3} data-widget="moderation">
      <Flex gap={2}>
        <Badge active data-pending>
          {queue.pending}
        </Badge>
        <Typography variant="omega">{t('widget.moderation.pending', '{count, plural, one {# comment waiting} other {# comments waiting}}', { count: queue.pending })}</Typography>
      </Flex>
      <Box tag="ul">
        {queue.newest.map((comment) => (
          <Box tag="li" key={comment.documentId} paddingBottom={2} data-queued={comment.documentId}>
            <Link tag={RouterLink} to={moderationLink(comment.documentId)}>
              {excerpt(comment.content)}
            </Link>
            <Typography variant="pi" textColor="neutral600" tag="p">
              {comment.article
                ? t('widget.moderation.on', 'on {title}, {date}', { title: comment.article.title, date: formatDate(comment.createdAt, DATE_FORMAT) })
                : formatDate(comment.createdAt, DATE_FORMAT)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Flex>
  );
};

export default ModerationWidget;
