/**
 * The response cache on the settings page (docs/caching.md): this instance's size, bound, entries, hits and misses per
 * type, and a Clear button (Update settings permission).
 */
import * as React from 'react';
import { Box, Button, Flex, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { Trash } from '@strapi/icons';
import { useAPIErrorHandler, useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { z } from 'zod/v4';
import type * as shapes from '../../../server/src/features/cache/admin-cache.shapes';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';
import { getTranslation } from '../utils/getTranslation';

type CacheStats = z.infer<typeof shapes.cacheStats>;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export const CacheCard = () => {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string | number>) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const {
    allowedActions: { canUpdate },
  } = useRBAC(PERMISSIONS.settingsUpdate);
  const [stats, setStats] = React.useState<CacheStats>();
  const [busy, setBusy] = React.useState(false);

  const load = React.useCallback(async () => {
    try {
      const { data } = await get<{ data: CacheStats }>(`/${PLUGIN_ID}/cache`);
      setStats(data.data);
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    }
  }, [get, toggleNotification, formatAPIError]);

  React.useEffect(() => {
    void load();
  }, [load]);

  const clear = async () => {
    setBusy(true);
    try {
      const { data } = await post<{ data: CacheStats }>(`/${PLUGIN_ID}/cache/clear`, {});
      setStats(data.data);
      toggleNotification({ type: 'success', message: t('cache.cleared', 'Cache cleared') });
    } catch (error) {
      toggleNotification({ type: 'danger', message: formatAPIError(error as never) });
    } finally {
      setBusy(false);
    }
  };

  if (!stats) return null;
  return (
    <Box background="neutral0" hasRadius shadow="filterShadow" paddingTop={6} paddingBottom={6} paddingLeft={7} paddingRight={7} data-testid="cache-card">
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Flex justifyContent="space-between">
          <Typography variant="delta" tag="h2">
            {t('cache.title', 'Response cache')}
          </Typography>
          <Button type="button" variant="danger-light" size="S" startIcon={<Trash />} loading={busy} disabled={!canUpdate} onClick={clear}>
            {t('cache.clear', 'Clear')}
          </Button>
        </Flex>
        <Typography data-testid="cache-size">
          {stats.enabled
            ? t('cache.size', '{size} of {max}, {entries, plural, one {# entry} other {# entries}} (this instance)', {
                size: mib(stats.bytes),
                max: mib(stats.maxBytes),
                entries: stats.entries,
              })
            : t('cache.disabled', 'Off (cache.enabled is false); ETags and Cache-Control still apply')}
        </Typography>
        {stats.types.length > 0 && (
          <Table colCount={4} rowCount={stats.types.length + 1}>
            <Thead>
              <Tr>
                <Th><Typography variant="sigma">{t('cache.type', 'Type')}</Typography></Th>
                <Th><Typography variant="sigma">{t('cache.hits', 'Hits')}</Typography></Th>
                <Th><Typography variant="sigma">{t('cache.misses', 'Misses')}</Typography></Th>
                <Th><Typography variant="sigma">{t('cache.ratio', 'Hit ratio')}</Typography></Th>
              </Tr>
            </Thead>
            <Tbody>
              {stats.types.map((row) => (
                <Tr key={row.type}>
                  <Td><Typography>{row.type}</Typography></Td>
                  <Td><Typography>{row.hits}</Typography></Td>
                  <Td><Typography>{row.misses}</Typography></Td>
                  <Td><Typography>{`${Math.round(row.hitRatio * 100)} %`}</Typography></Td>
                </Tr>
              ))}
            </Tbody>
          </Table>
        )}
      </Flex>
    </Box>
  );
};
