/**
 * The newsletters page (docs/newsletters.md#admin): every send with its progress while it runs (read again every two
 * seconds until none runs) and a Cancel button; every newsletter's subscribers by locale and state.
 */
import * as React from 'react';
import { Box, Button, Flex, Main, ProgressBar, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { Layouts, Page, useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { z } from 'zod/v4';
import type * as shapes from '../../../server/src/features/newsletters/admin-newsletters.shapes';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';
import { getTranslation } from '../utils/getTranslation';

type Send = z.infer<typeof shapes.send>;
type Newsletter = z.infer<typeof shapes.adminNewsletters>['data'][number];

const running = (send: Send) => send.status === 'queued' || send.status === 'sending';
const percent = (send: Send) => (send.total === 0 ? 100 : Math.round(((send.sent + send.failed) / send.total) * 100));

const NewslettersPage = () => {
  const { formatMessage, formatDate } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string | number>) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const statusText = (status: string) =>
    ({
      queued: t('newsletters.status.queued', 'Queued'),
      sending: t('newsletters.status.sending', 'Sending'),
      done: t('newsletters.status.done', 'Done'),
      cancelled: t('newsletters.status.cancelled', 'Cancelled'),
    })[status] ?? status;
  const stateText = (state: string) =>
    ({
      pending: t('newsletters.state.pending', 'Waiting for confirmation'),
      active: t('newsletters.state.active', 'Active'),
      unsubscribed: t('newsletters.state.unsubscribed', 'Unsubscribed'),
    })[state] ?? state;
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [sends, setSends] = React.useState<Send[]>([]);
  const [newsletters, setNewsletters] = React.useState<Newsletter[]>([]);

  const load = React.useCallback(async () => {
    try {
      const [s, n] = await Promise.all([get<{ data: Send[] }>(`/${PLUGIN_ID}/sends`), get<{ data: Newsletter[] }>(`/${PLUGIN_ID}/newsletters`)]);
      setSends(s.data.data);
      setNewsletters(n.data.data);
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    }
  }, [get, toggleNotification, formatAPIError]);

  React.useEffect(() => {
    void load();
  }, [load]);
  const anyRunning = sends.some(running);
  React.useEffect(() => {
    if (!anyRunning) return undefined;
    const timer = setInterval(() => void load(), 2000);
    return () => clearInterval(timer);
  }, [anyRunning, load]);

  const cancel = async (id: number) => {
    try {
      await post(`/${PLUGIN_ID}/sends/${id}/cancel`, {});
      await load();
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    }
  };

  const when = (value: string | null) => (value ? formatDate(value, { dateStyle: 'medium', timeStyle: 'short' }) : '');

  return (
    <Page.Protect permissions={PERMISSIONS.newslettersSend}>
      <Main>
        <Layouts.Header title={t('newsletters.title', 'Newsletters')} subtitle={t('newsletters.subtitle', 'Sends and subscribers')} />
        <Layouts.Content>
          <Flex direction="column" alignItems="stretch" gap={6}>
            <Box background="neutral0" hasRadius shadow="filterShadow" padding={6} data-testid="newsletter-sends">
              <Typography variant="delta" tag="h2">
                {t('newsletters.sends', 'Sends')}
              </Typography>
              {sends.length === 0 ? (
                <Typography textColor="neutral600" tag="p">
                  {t('newsletters.noSends', 'Nothing sent yet. Send an article from its side panel in the Content Manager.')}
                </Typography>
              ) : (
                <Table colCount={6} rowCount={sends.length + 1}>
                  <Thead>
                    <Tr>
                      <Th><Typography variant="sigma">{t('newsletters.article', 'Article')}</Typography></Th>
                      <Th><Typography variant="sigma">{t('newsletters.newsletter', 'Newsletter')}</Typography></Th>
                      <Th><Typography variant="sigma">{t('newsletters.status', 'Status')}</Typography></Th>
                      <Th><Typography variant="sigma">{t('newsletters.progress', 'Progress')}</Typography></Th>
                      <Th><Typography variant="sigma">{t('newsletters.started', 'Started')}</Typography></Th>
                      <Th><Typography variant="sigma">{t('newsletters.actions', 'Actions')}</Typography></Th>
                    </Tr>
                  </Thead>
                  <Tbody>
                    {sends.map((send) => (
                      <Tr key={send.id} data-send={send.id} data-status={send.status}>
                        <Td><Typography>{send.article.title ?? send.article.documentId}</Typography></Td>
                        <Td><Typography>{send.newsletter.name ?? send.newsletter.documentId}</Typography></Td>
                        <Td><Typography>{statusText(send.status)}</Typography></Td>
                        <Td>
                          <Flex gap={2}>
                            <ProgressBar value={percent(send)} size="S" aria-label={t('newsletters.progress', 'Progress')} />
                            <Typography data-progress>
                              {t('newsletters.count', '{sent} of {total, plural, one {#} other {#}} sent, {failed} failed', { sent: send.sent, total: send.total, failed: send.failed })}
                            </Typography>
                          </Flex>
                        </Td>
                        <Td><Typography>{when(send.createdAt)}</Typography></Td>
                        <Td>
                          {running(send) && (
                            <Button type="button" variant="danger-light" size="S" onClick={() => void cancel(send.id)}>
                              {t('newsletters.cancel', 'Cancel')}
                            </Button>
                          )}
                        </Td>
                      </Tr>
                    ))}
                  </Tbody>
                </Table>
              )}
            </Box>
            <Box background="neutral0" hasRadius shadow="filterShadow" padding={6} data-testid="newsletter-subscribers">
              <Typography variant="delta" tag="h2">
                {t('newsletters.subscribers', 'Subscribers')}
              </Typography>
              <Table colCount={4} rowCount={newsletters.length + 1}>
                <Thead>
                  <Tr>
                    <Th><Typography variant="sigma">{t('newsletters.newsletter', 'Newsletter')}</Typography></Th>
                    <Th><Typography variant="sigma">{t('newsletters.locale', 'Locale')}</Typography></Th>
                    <Th><Typography variant="sigma">{t('newsletters.state', 'State')}</Typography></Th>
                    <Th><Typography variant="sigma">{t('newsletters.countHeader', 'Count')}</Typography></Th>
                  </Tr>
                </Thead>
                <Tbody>
                  {newsletters.flatMap((n) =>
                    (n.subscribers.length ? n.subscribers : [null]).map((row, i) => (
                      <Tr key={`${n.documentId}-${i}`}>
                        <Td><Typography>{i === 0 ? n.name : ''}</Typography></Td>
                        <Td><Typography>{row?.locale ?? '–'}</Typography></Td>
                        <Td><Typography>{row ? stateText(row.state) : '–'}</Typography></Td>
                        <Td><Typography>{row?.count ?? 0}</Typography></Td>
                      </Tr>
                    ))
                  )}
                </Tbody>
              </Table>
            </Box>
          </Flex>
        </Layouts.Content>
      </Main>
    </Page.Protect>
  );
};

export default NewslettersPage;
