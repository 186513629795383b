/** Previous / next under the table, shown when there is more than one page. */
import { Button, Flex, Typography } from '@strapi/design-system';
import type { Translate } from '../../hooks/useModerationText';

interface Props {
  t: Translate;
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

export const Pager = ({ t, page, pageCount, onPage }: Props) =>
  pageCount > 1 ? (
    <Flex justifyContent="flex-end" gap={2} paddingTop={4}>
      <Button variant="tertiary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('moderation.previous', 'Previous')}
      </Button>
      <Typography>{t('moderation.page', 'Page {page} of {pages}', { page, pages: pageCount })}</Typography>
      <Button variant="tertiary" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        {t('moderation.next', 'Next')}
      </Button>
    </Flex>
  ) : null;
