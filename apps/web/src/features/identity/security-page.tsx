import { Flex, Typography } from 'antd';
import { Texts } from '../../lib/texts';
import { TwoFactorCard } from './two-factor-card';

/** The user's own sign-in security, reached from the user menu's Security entry. */
export function SecurityPage() {
  return (
    <Flex vertical gap="large">
      <Typography.Title level={2}>{Texts.securityTitle}</Typography.Title>
      <TwoFactorCard />
    </Flex>
  );
}
