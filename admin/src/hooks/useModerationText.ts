import { useIntl } from 'react-intl';
import { getTranslation } from '../utils/getTranslation';

/** `t(id, defaultMessage, values)` for the plugin's translation keys. */
export const useModerationText = () => {
  const { formatMessage } = useIntl();
  return (id: string, defaultMessage: string, values?: Record<string, string | number>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
};

export type Translate = ReturnType<typeof useModerationText>;
