import 'antd/dist/reset.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getSession } from '../session/session-store';
import { startSession } from '../session/start-session';
import { AppRoot } from './app-root';
import { Providers } from './providers';
import { preloadRoute } from './routes';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

void startSession();
// The page's code loads while the session is restored (startSession has read the kept user record).
preloadRoute(window.location.pathname, getSession().user !== null);

createRoot(container).render(
  <StrictMode>
    <Providers>
      <AppRoot />
    </Providers>
  </StrictMode>,
);
