/**
 * Import a WordPress or Disqus export (docs/import.md#admin): choose the file and its format, a dry run shows what
 * would be created, the run shows its progress, and the report lists what was skipped and why.
 */
import * as React from 'react';
import { Box, Button, Field, Flex, ProgressBar, SingleSelect, SingleSelectOption, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { Layouts, Page, useAPIErrorHandler, useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useModerationText } from '../hooks/useModerationText';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';

type Source = 'wordpress' | 'disqus';
interface ImportReport {
  id: number;
  source: Source;
  status: 'queued' | 'running' | 'done' | 'failed';
  dryRun: boolean;
  processed: number;
  total: number;
  counts: Record<string, number>;
  skipped: { kind: string; sourceId: string; reason: string }[];
  error: string | null;
}

const KINDS = ['articles', 'pages', 'categories', 'tags', 'comments', 'menus', 'menuItems', 'redirects'];
const SHOWN_SKIPPED = 200;
const POLL_MS = 500;

const ImportPage = () => {
  const t = useModerationText();
  const { post, get } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const [file, setFile] = React.useState<File | null>(null);
  const [source, setSource] = React.useState<Source>('wordpress');
  const [report, setReport] = React.useState<ImportReport | null>(null);
  const [busy, setBusy] = React.useState(false);

  // Follows the current import until it is done or failed.
  React.useEffect(() => {
    if (!report || report.status === 'done' || report.status === 'failed') return undefined;
    const timer = setTimeout(async () => {
      try {
        const { data } = await get<{ data: ImportReport }>(`/${PLUGIN_ID}/imports/${report.id}`);
        setReport(data.data);
      } catch (err) {
        toggleNotification({ type: 'danger', message: formatAPIError(err as never) });
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [report, get, toggleNotification, formatAPIError]);

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file);
      form.append('source', source);
      form.append('dryRun', String(dryRun));
      const { data } = await post<{ data: { id: number; status: ImportReport['status'] } }>(`/${PLUGIN_ID}/imports`, form);
      setReport({ id: data.data.id, source, status: data.data.status, dryRun, processed: 0, total: 0, counts: {}, skipped: [], error: null });
    } catch (err) {
      toggleNotification({ type: 'danger', message: formatAPIError(err as never) });
    } finally {
      setBusy(false);
    }
  };

  const statusText: Record<ImportReport['status'], string> = {
    queued: t('import.status.queued', 'queued'),
    running: t('import.status.running', 'running'),
    done: t('import.status.done', 'done'),
    failed: t('import.status.failed', 'failed'),
  };
  const kindText: Record<string, string> = {
    articles: t('import.kind.articles', 'Articles'),
    pages: t('import.kind.pages', 'Pages'),
    categories: t('import.kind.categories', 'Categories'),
    tags: t('import.kind.tags', 'Tags'),
    comments: t('import.kind.comments', 'Comments'),
    menus: t('import.kind.menus', 'Menus'),
    menuItems: t('import.kind.menuItems', 'Menu items'),
    redirects: t('import.kind.redirects', 'Redirects'),
  };
  const running = report !== null && (report.status === 'queued' || report.status === 'running');
  const percent = report && report.total > 0 ? Math.round((report.processed / report.total) * 100) : 0;

  return (
    <Page.Protect permissions={PERMISSIONS.importContent}>
      <Page.Title>{t('import.title', 'Import')}</Page.Title>
      <Page.Main>
        <Layouts.Header title={t('import.title', 'Import')} subtitle={t('import.subtitle', 'Move a WordPress site or a Disqus archive in')} />
        <Layouts.Content>
          <Flex direction="column" alignItems="stretch" gap={6}>
            <Box background="neutral0" padding={6} shadow="filterShadow" hasRadius>
              <Flex gap={4} alignItems="flex-end" wrap="wrap">
                <Field.Root name="file">
                  <Field.Label>{t('import.file', 'Export file')}</Field.Label>
                  <input id="import-file" type="file" accept=".xml,text/xml,application/xml" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
                </Field.Root>
                <Field.Root name="source">
                  <Field.Label>{t('import.source', 'Format')}</Field.Label>
                  <SingleSelect value={source} onChange={(value: string | number) => setSource(value as Source)}>
                    <SingleSelectOption value="wordpress">{t('import.source.wordpress', 'WordPress (WXR)')}</SingleSelectOption>
                    <SingleSelectOption value="disqus">{t('import.source.disqus', 'Disqus')}</SingleSelectOption>
                  </SingleSelect>
                </Field.Root>
                <Button variant="secondary" disabled={!file || busy || running} onClick={() => start(true)}>
                  {t('import.dryRun', 'Dry run')}
                </Button>
                <Button disabled={!file || busy || running} onClick={() => start(false)}>
                  {t('import.run', 'Import')}
                </Button>
              </Flex>
            </Box>
            {report && (
              <Box background="neutral0" padding={6} shadow="filterShadow" hasRadius data-import-status={report.status}>
                <Flex direction="column" alignItems="stretch" gap={4}>
                  <Typography variant="delta" tag="h2">
                    {report.dryRun ? t('import.report.dryRun', 'Dry run: nothing was written') : t('import.report.run', 'Import')}
                    {' · '}
                    {statusText[report.status]}
                  </Typography>
                  <Box background="neutral800" padding={3} hasRadius>
                    <ProgressBar value={report.status === 'done' ? 100 : percent} aria-label={t('import.title', 'Import')} />
                  </Box>
                  <Typography>{t('import.progress', '{processed} of {total, plural, one {# item} other {# items}}', { processed: report.processed, total: report.total })}</Typography>
                  {report.error && <Typography textColor="danger600">{report.error}</Typography>}
                  <Table colCount={2} rowCount={KINDS.length + 1}>
                    <Thead>
                      <Tr>
                        <Th><Typography variant="sigma">{t('import.kind', 'Kind')}</Typography></Th>
                        <Th><Typography variant="sigma">{report.dryRun ? t('import.wouldCreate', 'Would be created') : t('import.created', 'Created')}</Typography></Th>
                      </Tr>
                    </Thead>
                    <Tbody>
                      {KINDS.map((kind) => (
                        <Tr key={kind} data-count={kind}>
                          <Td><Typography>{kindText[kind]}</Typography></Td>
                          <Td><Typography>{report.counts[kind] ?? 0}</Typography></Td>
                        </Tr>
                      ))}
                    </Tbody>
                  </Table>
                  {report.skipped.length > 0 && (
                    <>
                      <Typography variant="delta" tag="h3">
                        {t('import.skipped', '{count, plural, one {# item skipped} other {# items skipped}}', { count: report.skipped.length })}
                      </Typography>
                      <Table colCount={3} rowCount={Math.min(report.skipped.length, SHOWN_SKIPPED) + 1}>
                        <Thead>
                          <Tr>
                            <Th><Typography variant="sigma">{t('import.kind', 'Kind')}</Typography></Th>
                            <Th><Typography variant="sigma">{t('import.sourceId', 'Id in the export')}</Typography></Th>
                            <Th><Typography variant="sigma">{t('import.reason', 'Reason')}</Typography></Th>
                          </Tr>
                        </Thead>
                        <Tbody>
                          {report.skipped.slice(0, SHOWN_SKIPPED).map((item, index) => (
                            <Tr key={`${item.kind}-${item.sourceId}-${index}`}>
                              <Td><Typography>{item.kind}</Typography></Td>
                              <Td><Typography>{item.sourceId}</Typography></Td>
                              <Td><Typography>{item.reason}</Typography></Td>
                            </Tr>
                          ))}
                        </Tbody>
                      </Table>
                    </>
                  )}
                </Flex>
              </Box>
            )}
          </Flex>
        </Layouts.Content>
      </Page.Main>
    </Page.Protect>
  );
};

export default ImportPage;
