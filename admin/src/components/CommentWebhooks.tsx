/**
 * The comment webhooks section of the settings page (docs/comments.md#webhooks): the host's webhooks, each with a
 * checkbox per comment event. The host's Settings → Webhooks page offers only its own events, so an administrator
 * ticks the comment events here; saving puts the webhook back through the host's admin API with its other fields and
 * host events as they are. The admin's own token is used, so the host's webhook permissions apply.
 */
import * as React from 'react';
import { Badge, Box, Button, Checkbox, Flex, Link, Typography } from '@strapi/design-system';
import { Check } from '@strapi/icons';
import { isFetchError, useAPIErrorHandler, useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import type { CommentEvent, Webhook } from '../api-types';
import { PERMISSIONS } from '../permissions';
import { getTranslation } from '../utils/getTranslation';

type Load = { state: 'loading' } | { state: 'forbidden' } | { state: 'failed' } | { state: 'ready'; webhooks: Webhook[] };

export const CommentWebhooks = () => {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string>) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const { get, put } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const {
    isLoading: isLoadingPermissions,
    allowedActions: { canRead, canUpdate },
  } = useRBAC(PERMISSIONS.webhooks);

  // A Record over the event type: a sixth server event fails to compile until it has a checkbox here.
  const labels: Record<CommentEvent, string> = {
    'bag-comment.created': t('settings.webhooks.event.created', 'Created'),
    'bag-comment.approved': t('settings.webhooks.event.approved', 'Approved'),
    'bag-comment.rejected': t('settings.webhooks.event.rejected', 'Rejected'),
    'bag-comment.reported': t('settings.webhooks.event.reported', 'Reported'),
    'bag-comment.deleted': t('settings.webhooks.event.deleted', 'Deleted'),
  };
  const events = Object.keys(labels) as CommentEvent[];

  const [load, setLoad] = React.useState<Load>({ state: 'loading' });
  /** The ticked comment events of each webhook, by id, as the form holds them. */
  const [ticked, setTicked] = React.useState<Record<string, CommentEvent[]>>({});
  const [saving, setSaving] = React.useState<string>();

  const chosen = (webhook: Webhook) => events.filter((event) => webhook.events.includes(event));

  React.useEffect(() => {
    if (isLoadingPermissions) return;
    if (!canRead) {
      setLoad({ state: 'forbidden' });
      return;
    }
    get<{ data: Webhook[] }>('/admin/webhooks')
      .then(({ data }) => {
        setLoad({ state: 'ready', webhooks: data.data });
        setTicked(Object.fromEntries(data.data.map((webhook) => [webhook.id, chosen(webhook)])));
      })
      .catch((error) => setLoad({ state: isFetchError(error) && error.status === 403 ? 'forbidden' : 'failed' }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isLoadingPermissions, canRead]);

  const toggle = (id: string, event: CommentEvent, on: boolean) =>
    setTicked((current) => {
      const next = new Set(current[id]);
      if (on) next.add(event);
      else next.delete(event);
      return { ...current, [id]: events.filter((e) => next.has(e)) };
    });

  const save = async (id: string) => {
    setSaving(id);
    try {
      // Read again just before writing, so a change made meanwhile in Settings → Webhooks is not undone.
      const { data: current } = await get<{ data: Webhook }>(`/admin/webhooks/${id}`);
      const { name, url, headers, isEnabled } = current.data;
      const hostEvents = current.data.events.filter((event) => !(events as string[]).includes(event));
      const { data } = await put<{ data: Webhook }>(`/admin/webhooks/${id}`, { name, url, headers, isEnabled, events: [...hostEvents, ...ticked[id]] });
      const saved = data.data;
      setLoad((previous) => (previous.state === 'ready' ? { ...previous, webhooks: previous.webhooks.map((w) => (w.id === id ? saved : w)) } : previous));
      setTicked((previous) => ({ ...previous, [id]: chosen(saved) }));
      toggleNotification({ type: 'success', message: t('settings.webhooks.saved', 'Comment events saved') });
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    } finally {
      setSaving(undefined);
    }
  };

  const note = (text: string) => (
    <Typography variant="omega" textColor="neutral600">
      {text}
    </Typography>
  );

  const body = () => {
    if (load.state === 'loading') return null;
    if (load.state === 'forbidden') return note(t('settings.webhooks.forbidden', 'Your role may not read webhooks (Settings → Webhooks permissions)'));
    if (load.state === 'failed') return note(t('settings.webhooks.failed', 'The webhooks could not be loaded'));
    if (load.webhooks.length === 0) {
      return note(t('settings.webhooks.empty', 'No webhook yet — create one in Settings → Webhooks, then choose its comment events here'));
    }
    return (
      <Flex direction="column" alignItems="stretch" gap={3} tag="ul">
        {load.webhooks.map((webhook) => {
          const modified = JSON.stringify(ticked[webhook.id]) !== JSON.stringify(chosen(webhook));
          return (
            <Box key={webhook.id} tag="li" data-webhook={webhook.id} background="neutral100" hasRadius padding={4}>
              <Flex direction="column" alignItems="stretch" gap={4}>
                <Flex justifyContent="space-between" alignItems="flex-start" gap={4}>
                  <Flex direction="column" alignItems="flex-start" gap={1}>
                    <Flex gap={2}>
                      <Typography fontWeight="bold">{webhook.name}</Typography>
                      {!webhook.isEnabled && <Badge>{t('settings.webhooks.disabled', 'Disabled')}</Badge>}
                    </Flex>
                    <Typography variant="pi" textColor="neutral600" style={{ wordBreak: 'break-all' }}>
                      {webhook.url}
                    </Typography>
                  </Flex>
                  <Button
                    type="button"
                    variant="secondary"
                    size="S"
                    startIcon={<Check />}
                    loading={saving === webhook.id}
                    disabled={!canUpdate || !modified}
                    onClick={() => save(webhook.id)}
                  >
                    {t('settings.webhooks.save', 'Save events')}
                  </Button>
                </Flex>
                <Flex gap={6} wrap="wrap">
                  {events.map((event) => (
                    <Flex key={event} direction="column" alignItems="flex-start" gap={1}>
                      <Checkbox
                        name={`${webhook.id}.${event}`}
                        checked={ticked[webhook.id]?.includes(event) ?? false}
                        disabled={!canUpdate || saving === webhook.id}
                        onCheckedChange={(on: boolean | 'indeterminate') => toggle(webhook.id, event, on === true)}
                      >
                        {labels[event]}
                      </Checkbox>
                      <Typography variant="pi" textColor="neutral500">
                        {event}
                      </Typography>
                    </Flex>
                  ))}
                </Flex>
              </Flex>
            </Box>
          );
        })}
      </Flex>
    );
  };

  return (
    <Box background="neutral0" hasRadius shadow="filterShadow" paddingTop={6} paddingBottom={6} paddingLeft={7} paddingRight={7} data-testid="comment-webhooks">
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Flex justifyContent="space-between">
          <Typography variant="delta" tag="h2">
            {t('settings.webhooks.title', 'Comment webhooks')}
          </Typography>
          <Link tag={RouterLink} to="/settings/webhooks">
            {t('settings.webhooks.link', 'Open Settings → Webhooks')}
          </Link>
        </Flex>
        {note(
          t(
            'settings.webhooks.help',
            'Choose the comment events each webhook receives. Webhooks are created, and their URL and headers set, in Settings → Webhooks; saving a webhook there keeps the comment events chosen here.'
          )
        )}
        {load.state === 'ready' && load.webhooks.length > 0 && !canUpdate && note(t('settings.webhooks.readOnly', 'Your role may read webhooks but not change their events'))}
        {body()}
      </Flex>
    </Box>
  );
};
