import { GithubOutlined, GoogleOutlined } from '@ant-design/icons';
import { Messages } from '@ebs/contract';
import { Button, Divider, Space } from 'antd';
import { usePublicConfig } from '../../api/public-config';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';

const notConfigured = () => toast.info(Messages.providerNotConfigured);

/** The first provider always; the second only outside prod (spec B §2). */
export function ThirdPartyButtons() {
  const appEnv = usePublicConfig()?.appEnv;
  return (
    <>
      <Divider plain>{Texts.or}</Divider>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button block icon={<GoogleOutlined />} onClick={notConfigured}>
          {Texts.signInWithGoogle}
        </Button>
        {appEnv !== 'prod' && (
          <Button block icon={<GithubOutlined />} onClick={notConfigured}>
            {Texts.signInWithGitHub}
          </Button>
        )}
      </Space>
    </>
  );
}
