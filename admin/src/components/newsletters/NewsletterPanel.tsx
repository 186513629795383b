/**
 * "Send as newsletter" in an article's side panel (docs/newsletters.md#admin): when and by which newsletter it was
 * sent, a test send to one address, and the send itself (once per newsletter; the server answers 409 the second time).
 */
import * as React from 'react';
import { Button, Field, Flex, SingleSelect, SingleSelectOption, TextInput, Typography } from '@strapi/design-system';
import { useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { z } from 'zod/v4';
import type * as shapes from '../../../../server/src/features/newsletters/admin-newsletters.shapes';
import { PLUGIN_ID } from '../../pluginId';
import { getTranslation } from '../../utils/getTranslation';

type Send = z.infer<typeof shapes.send>;
type Newsletter = z.infer<typeof shapes.adminNewsletters>['data'][number];

export const NewsletterPanel = ({ documentId, locale }: { documentId: string; locale?: string }) => {
  const { formatMessage, formatDate } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string | number>) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [newsletters, setNewsletters] = React.useState<Newsletter[]>([]);
  const [sends, setSends] = React.useState<Send[]>([]);
  const [chosen, setChosen] = React.useState<string>('');
  const [testTo, setTestTo] = React.useState('');
  const [busy, setBusy] = React.useState(false);

  const load = React.useCallback(async () => {
    const [n, s] = await Promise.all([
      get<{ data: Newsletter[] }>(`/${PLUGIN_ID}/newsletters`),
      get<{ data: Send[] }>(`/${PLUGIN_ID}/sends?${new URLSearchParams({ article: documentId })}`),
    ]);
    setNewsletters(n.data.data);
    setSends(s.data.data);
    setChosen((current) => current || n.data.data[0]?.documentId || '');
  }, [get, documentId]);

  React.useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  const start = async (test?: string) => {
    setBusy(true);
    try {
      await post(`/${PLUGIN_ID}/newsletters/${chosen}/sends`, { article: documentId, ...(locale ? { locale } : {}), ...(test ? { test } : {}) });
      toggleNotification({ type: 'success', message: test ? t('newsletters.testSent', 'Test sent to {to}', { to: test }) : t('newsletters.queued', 'Send started') });
      await load();
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    } finally {
      setBusy(false);
    }
  };

  if (newsletters.length === 0) return null;
  const sentBy = sends.find((s) => s.newsletter.documentId === chosen);

  return (
    <Flex direction="column" alignItems="stretch" gap={3} data-newsletter-panel>
      <Typography variant="sigma">{t('newsletters.panel', 'Send as newsletter')}</Typography>
      {sends.map((send) => (
        <Typography key={send.id} variant="pi" data-sent-on>
          {t('newsletters.sentOn', '{newsletter}: sent on {date} ({status})', {
            newsletter: send.newsletter.name ?? '',
            date: formatDate(send.createdAt, { dateStyle: 'medium', timeStyle: 'short' }),
            status: send.status,
          })}
        </Typography>
      ))}
      <SingleSelect aria-label={t('newsletters.newsletter', 'Newsletter')} value={chosen} onChange={(value: string | number) => setChosen(String(value))} size="S">
        {newsletters.map((n) => (
          <SingleSelectOption key={n.documentId} value={n.documentId}>
            {n.name}
          </SingleSelectOption>
        ))}
      </SingleSelect>
      <Field.Root name="newsletter-test">
        <Field.Label>{t('newsletters.testTo', 'Test send to')}</Field.Label>
        <TextInput type="email" size="S" value={testTo} onChange={(e: React.ChangeEvent<HTMLInputElement>) => setTestTo(e.target.value)} />
      </Field.Root>
      <Flex gap={2}>
        <Button type="button" variant="secondary" size="S" disabled={busy || !testTo} onClick={() => void start(testTo)}>
          {t('newsletters.sendTest', 'Send test')}
        </Button>
        <Button type="button" size="S" disabled={busy || Boolean(sentBy)} onClick={() => void start()}>
          {t('newsletters.send', 'Send')}
        </Button>
      </Flex>
    </Flex>
  );
};
