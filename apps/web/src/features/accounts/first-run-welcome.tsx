import { Alert, Button } from 'antd';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';

/** A new user's welcome above the empty accounts table: it leads to the wizard. */
export function FirstRunWelcome() {
  const navigate = useNavigate();
  return (
    <Alert
      className="first-run"
      type="info"
      showIcon
      message={Texts.welcomeTitle}
      description={Texts.welcomeText}
      action={
        <Button type="primary" onClick={() => navigate(paths.accountsCreate)}>
          {Texts.createFirstAccount}
        </Button>
      }
    />
  );
}
