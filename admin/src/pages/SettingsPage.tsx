/** Settings → CMS Bag: the configuration keys an administrator may change without a restart. */
import * as React from 'react';
import { Box, Button, Field, Flex, Grid, SingleSelect, SingleSelectOption, Textarea, TextInput, Toggle, Typography } from '@strapi/design-system';
import { Check } from '@strapi/icons';
import { Layouts, Page, useAPIErrorHandler, useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { AdminSettings, CaptchaType, SettingsBody, SettingsResponse } from '../api-types';
import { CacheCard } from '../components/CacheCard';
import { CommentWebhooks } from '../components/CommentWebhooks';
import { PERMISSIONS } from '../permissions';
import { PLUGIN_ID } from '../pluginId';
import { formatDuration } from '../utils/duration';
import { getTranslation } from '../utils/getTranslation';

/** The form's values: the duration is edited as text ('30d'). */
interface FormValues {
  loginCaptchaEnabled: boolean;
  loginCaptchaType: CaptchaType;
  registerCaptchaEnabled: boolean;
  registerCaptchaType: CaptchaType;
  refreshTokenExpiresIn: string;
  requireEncryptedPassword: boolean;
  autoApprove: boolean;
  passwordless: boolean;
  accountDeletion: boolean;
  signInAlerts: boolean;
  mfa: boolean;
  newsletters: boolean;
  doubleOptIn: boolean;
  /** One word or phrase per line. */
  blockedWords: string;
  holdWords: string;
  maxLinks: string;
  trustApproved: boolean;
}

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

const toForm = (s: AdminSettings): FormValues => ({
  loginCaptchaEnabled: s.login.captcha.enabled,
  loginCaptchaType: s.login.captcha.type,
  registerCaptchaEnabled: s.register.captcha.enabled,
  registerCaptchaType: s.register.captcha.type,
  refreshTokenExpiresIn: formatDuration(s.auth.refreshToken.expiresIn),
  requireEncryptedPassword: s.auth.requireEncryptedPassword,
  autoApprove: s.comments.autoApprove,
  passwordless: s.account.passwordless.enabled,
  accountDeletion: s.account.deletion.enabled,
  signInAlerts: s.account.signInAlerts,
  mfa: s.account.mfa.enabled,
  newsletters: s.newsletters.enabled,
  doubleOptIn: s.newsletters.doubleOptIn,
  blockedWords: s.comments.moderation.blockedWords.join('\n'),
  holdWords: s.comments.moderation.holdWords.join('\n'),
  maxLinks: String(s.comments.moderation.maxLinks),
  trustApproved: s.comments.moderation.trustApproved,
});

const toBody = (v: FormValues): SettingsBody => ({
  login: { captcha: { enabled: v.loginCaptchaEnabled, type: v.loginCaptchaType } },
  register: { captcha: { enabled: v.registerCaptchaEnabled, type: v.registerCaptchaType } },
  auth: {
    refreshToken: { expiresIn: /^\d+$/.test(v.refreshTokenExpiresIn.trim()) ? Number(v.refreshTokenExpiresIn) : v.refreshTokenExpiresIn.trim() },
    requireEncryptedPassword: v.requireEncryptedPassword,
  },
  comments: {
    autoApprove: v.autoApprove,
    moderation: {
      blockedWords: lines(v.blockedWords),
      holdWords: lines(v.holdWords),
      maxLinks: /^\d+$/.test(v.maxLinks.trim()) ? Number(v.maxLinks) : (v.maxLinks as unknown as number),
      trustApproved: v.trustApproved,
    },
  },
  account: { passwordless: { enabled: v.passwordless }, deletion: { enabled: v.accountDeletion }, signInAlerts: v.signInAlerts, mfa: { enabled: v.mfa } },
  newsletters: { enabled: v.newsletters, doubleOptIn: v.doubleOptIn },
});

const CAPTCHA_TYPES: CaptchaType[] = ['image', 'pow', 'email', 'any'];

const SettingsPage = () => {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, string>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const { get, put } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { formatAPIError } = useAPIErrorHandler();
  const {
    isLoading: isLoadingPermissions,
    allowedActions: { canUpdate },
  } = useRBAC(PERMISSIONS.settingsUpdate);

  const [values, setValues] = React.useState<FormValues>();
  const [saved, setSaved] = React.useState<FormValues>();
  const [keys, setKeys] = React.useState<SettingsResponse['data']['crypto']>();
  const [error, setError] = React.useState(false);
  const [saving, setSaving] = React.useState(false);

  const apply = (data: SettingsResponse['data']) => {
    const form = toForm(data.settings);
    setValues(form);
    setSaved(form);
    setKeys(data.crypto);
  };

  React.useEffect(() => {
    get<SettingsResponse>(`/${PLUGIN_ID}/settings`)
      .then(({ data }) => apply(data.data))
      .catch(() => setError(true));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (error) return <Page.Error />;
  if (!values || !keys || isLoadingPermissions) return <Page.Loading />;

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => setValues({ ...values, [key]: value });
  const modified = JSON.stringify(values) !== JSON.stringify(saved);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const { data } = await put<SettingsResponse>(`/${PLUGIN_ID}/settings`, toBody(values));
      apply(data.data);
      toggleNotification({ type: 'success', message: t('settings.saved', 'Settings saved') });
    } catch (err) {
      toggleNotification({ type: 'danger', message: formatAPIError(err as never) });
    } finally {
      setSaving(false);
    }
  };

  const onOff = { onLabel: t('settings.on', 'On'), offLabel: t('settings.off', 'Off') };

  const toggle = (name: keyof FormValues, label: string, hint: string) => (
    <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
      <Field.Root name={name} id={name} hint={hint}>
        <Field.Label>{label}</Field.Label>
        <Toggle
          {...onOff}
          name={name}
          checked={values[name] as boolean}
          disabled={!canUpdate}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => set(name, e.target.checked as never)}
        />
        <Field.Hint />
      </Field.Root>
    </Grid.Item>
  );

  const wordList = (name: 'blockedWords' | 'holdWords', label: string, hint: string) => (
    <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
      <Field.Root name={name} id={name} hint={hint}>
        <Field.Label>{label}</Field.Label>
        <Textarea name={name} value={values[name]} disabled={!canUpdate} onChange={(e: React.ChangeEvent<HTMLTextAreaElement>) => set(name, e.target.value)} />
        <Field.Hint />
      </Field.Root>
    </Grid.Item>
  );

  const captchaType = (name: 'loginCaptchaType' | 'registerCaptchaType', label: string) => (
    <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
      <Field.Root name={name} id={name}>
        <Field.Label>{label}</Field.Label>
        <SingleSelect value={values[name]} disabled={!canUpdate} onChange={(value: string | number) => set(name, value as CaptchaType)}>
          {CAPTCHA_TYPES.map((type) => (
            <SingleSelectOption key={type} value={type}>
              {t(`settings.captcha.type.${type}`, type)}
            </SingleSelectOption>
          ))}
        </SingleSelect>
      </Field.Root>
    </Grid.Item>
  );

  const section = (title: string, children: React.ReactNode) => (
    <Box background="neutral0" hasRadius shadow="filterShadow" paddingTop={6} paddingBottom={6} paddingLeft={7} paddingRight={7}>
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Typography variant="delta" tag="h2">
          {title}
        </Typography>
        <Grid.Root gap={6}>{children}</Grid.Root>
      </Flex>
    </Box>
  );

  const yesNo = (configured: boolean) => (configured ? t('settings.keys.configured', 'Configured') : t('settings.keys.notConfigured', 'Not configured'));

  return (
    <Page.Main aria-busy={saving}>
      <Page.Title>{t('settings.title', 'CMS Bag settings')}</Page.Title>
      <form onSubmit={onSubmit}>
        <Layouts.Header
          title={t('settings.title', 'CMS Bag settings')}
          subtitle={t('settings.subtitle', 'Applied at once, without a restart. The file configuration gives the defaults.')}
          primaryAction={
            <Button type="submit" startIcon={<Check />} size="S" loading={saving} disabled={!modified || !canUpdate}>
              {t('settings.save', 'Save')}
            </Button>
          }
        />
        <Layouts.Content>
          <Flex direction="column" alignItems="stretch" gap={6}>
            {section(
              t('settings.section.captcha', 'Captcha'),
              <>
                {toggle('loginCaptchaEnabled', t('settings.login.captcha.enabled', 'Login captcha'), t('settings.login.captcha.hint', 'Ask for a captcha code on every login'))}
                {captchaType('loginCaptchaType', t('settings.login.captcha.type', 'Login captcha type'))}
                {toggle('registerCaptchaEnabled', t('settings.register.captcha.enabled', 'Registration captcha'), t('settings.register.captcha.hint', 'Ask for a captcha code on registration'))}
                {captchaType('registerCaptchaType', t('settings.register.captcha.type', 'Registration captcha type'))}
              </>
            )}
            {section(
              t('settings.section.accounts', 'Accounts'),
              <>
                <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                  <Field.Root
                    name="refreshTokenExpiresIn"
                    id="refreshTokenExpiresIn"
                    hint={t('settings.refreshToken.hint', 'Seconds, or a duration such as 90s, 15m, 12h, 30d')}
                  >
                    <Field.Label>{t('settings.refreshToken.expiresIn', 'Refresh token lifetime')}</Field.Label>
                    <TextInput
                      name="refreshTokenExpiresIn"
                      value={values.refreshTokenExpiresIn}
                      disabled={!canUpdate}
                      onChange={(e: React.ChangeEvent<HTMLInputElement>) => set('refreshTokenExpiresIn', e.target.value)}
                    />
                    <Field.Hint />
                  </Field.Root>
                </Grid.Item>
                {toggle(
                  'requireEncryptedPassword',
                  t('settings.requireEncryptedPassword', 'Require an encrypted password'),
                  t('settings.requireEncryptedPassword.hint', 'Login and registration refuse a plain password')
                )}
                {toggle('passwordless', t('settings.account.passwordless', 'Passwordless login'), t('settings.account.passwordless.hint', 'Users may log in with an e-mailed code alone'))}
                {toggle('accountDeletion', t('settings.account.deletion', 'Account deletion'), t('settings.account.deletion.hint', 'Users may delete their own account'))}
                {toggle('signInAlerts', t('settings.account.signInAlerts', 'Sign-in alerts'), t('settings.account.signInAlerts.hint', 'Mail the account on a sign-in from a new device'))}
                {toggle('mfa', t('settings.account.mfa', 'Second factors'), t('settings.account.mfa.hint', 'Users may enrol an authenticator app and passkeys'))}
              </>
            )}
            {section(
              t('settings.section.comments', 'Comments'),
              <>
                {toggle('autoApprove', t('settings.comments.autoApprove', 'Approve new comments automatically'), t('settings.comments.autoApprove.hint', 'Off: new comments wait for moderation'))}
                {toggle(
                  'trustApproved',
                  t('settings.comments.trustApproved', 'Trust approved authors'),
                  t('settings.comments.trustApproved.hint', 'A signed-in author with an approved comment is approved at once, unless a rule holds the comment')
                )}
                {wordList('blockedWords', t('settings.comments.blockedWords', 'Blocked words'), t('settings.comments.blockedWords.hint', 'One per line; a comment with one is rejected (whole word, any case)'))}
                {wordList('holdWords', t('settings.comments.holdWords', 'Hold words'), t('settings.comments.holdWords.hint', 'One per line; a comment with one waits for moderation'))}
                <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                  <Field.Root name="maxLinks" id="maxLinks" hint={t('settings.comments.maxLinks.hint', 'A comment with more links waits for moderation')}>
                    <Field.Label>{t('settings.comments.maxLinks', 'Most links in a comment')}</Field.Label>
                    <TextInput name="maxLinks" value={values.maxLinks} disabled={!canUpdate} onChange={(e: React.ChangeEvent<HTMLInputElement>) => set('maxLinks', e.target.value)} />
                    <Field.Hint />
                  </Field.Root>
                </Grid.Item>
              </>
            )}
            {section(
              t('settings.section.newsletters', 'Newsletters'),
              <>
                {toggle('newsletters', t('settings.newsletters.enabled', 'Newsletters'), t('settings.newsletters.enabled.hint', 'Off: readers cannot subscribe and nothing is sent'))}
                {toggle(
                  'doubleOptIn',
                  t('settings.newsletters.doubleOptIn', 'Confirm subscriptions by e-mail'),
                  t('settings.newsletters.doubleOptIn.hint', 'A subscription by address alone waits for the link mailed to it')
                )}
              </>
            )}
            {section(
              t('settings.section.keys', 'Keys'),
              <>
                <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                  <Typography variant="pi" fontWeight="bold">{t('settings.keys.rsa', 'RSA private key')}</Typography>
                  <Typography data-testid="rsa-configured">{yesNo(keys.rsaPrivateKeyConfigured)}</Typography>
                </Grid.Item>
                <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                  <Typography variant="pi" fontWeight="bold">{t('settings.keys.aes', 'AES secret')}</Typography>
                  <Typography data-testid="aes-configured">{yesNo(keys.aesSecretConfigured)}</Typography>
                </Grid.Item>
                <Grid.Item col={12} direction="column" alignItems="stretch">
                  <Typography variant="pi" fontWeight="bold">{t('settings.keys.fingerprint', 'Public key fingerprint (SHA-256)')}</Typography>
                  <Typography data-testid="fingerprint" style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {keys.publicKeyFingerprint}
                  </Typography>
                  <Typography variant="pi" textColor="neutral600">
                    {t('settings.keys.hint', 'Keys are set in config/plugins.ts or the environment and are never sent to the browser.')}
                  </Typography>
                </Grid.Item>
              </>
            )}
            <CacheCard />
            <CommentWebhooks />
          </Flex>
        </Layouts.Content>
      </form>
    </Page.Main>
  );
};

const ProtectedSettingsPage = () => (
  <Page.Protect permissions={PERMISSIONS.settingsRead}>
    <SettingsPage />
  </Page.Protect>
);

export default ProtectedSettingsPage;
