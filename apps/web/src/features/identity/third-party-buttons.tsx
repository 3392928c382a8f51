import { GithubOutlined, GitlabOutlined, GoogleOutlined, LoginOutlined } from '@ant-design/icons';
import {
  type EndpointParams,
  endpointPath,
  endpoints,
  Messages,
  THIRD_PARTY_DEFAULT_NAMES,
  THIRD_PARTY_ERROR_PARAM,
  THIRD_PARTY_SLOTS,
  type ThirdPartyProvider,
} from '@ebs/contract';
import { Button, Divider, Space } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { usePublicConfig } from '../../api/public-config';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { thirdPartyLoginError } from './third-party-error';

const icons: Record<string, ReactNode> = {
  google: <GoogleOutlined />,
  gitlab: <GitlabOutlined />,
  github: <GithubOutlined />,
};

/** Without the public configuration the buttons keep their default names and say they are not configured. */
const unconfigured: ThirdPartyProvider[] = THIRD_PARTY_SLOTS.map((id) => ({
  id,
  name: THIRD_PARTY_DEFAULT_NAMES[id],
  configured: false,
}));

/** Sends the browser to the server, which redirects it to the provider (docs/decisions.md). */
const startSignIn = (provider: ThirdPartyProvider) => {
  if (!provider.configured) {
    toast.info(Messages.providerNotConfigured);
    return;
  }
  const start = endpoints.identity.startThirdParty;
  const params: EndpointParams<typeof start> = { provider: provider.id };
  window.location.assign(endpointPath(start.path, params));
};

/** A third-party sign-in that came back to /login with an error shows it once as the login error. */
function useThirdPartyLoginError() {
  const location = useLocation();
  const navigate = useNavigate();
  const raw = new URLSearchParams(location.search).get(THIRD_PARTY_ERROR_PARAM);

  useEffect(() => {
    if (raw === null) return;
    const message = thirdPartyLoginError(raw);
    if (message) toast.error(message);
    const rest = new URLSearchParams(location.search);
    rest.delete(THIRD_PARTY_ERROR_PARAM);
    const search = rest.toString() ? `?${rest}` : '';
    void navigate({ pathname: location.pathname, search }, { replace: true, state: location.state });
  }, [raw, location.pathname, location.search, location.state, navigate]);
}

/** The first provider always; the second only outside prod (spec B §2, §9). */
export function ThirdPartyButtons() {
  const config = usePublicConfig();
  useThirdPartyLoginError();
  const providers = (config?.thirdPartyProviders ?? unconfigured).filter(
    (provider) => provider.id === 'first' || config?.appEnv !== 'prod',
  );
  return (
    <>
      <Divider plain>{Texts.or}</Divider>
      <Space direction="vertical" style={{ width: '100%' }}>
        {providers.map((provider) => (
          <Button
            key={provider.id}
            block
            icon={icons[provider.name.toLowerCase()] ?? <LoginOutlined />}
            onClick={() => startSignIn(provider)}
          >
            {Texts.signInWith(provider.name)}
          </Button>
        ))}
      </Space>
    </>
  );
}
