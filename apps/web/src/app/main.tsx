import 'antd/dist/reset.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startSession } from '../session/start-session';
import { AppRoot } from './app-root';
import { Providers } from './providers';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

void startSession();

createRoot(container).render(
  <StrictMode>
    <Providers>
      <AppRoot />
    </Providers>
  </StrictMode>,
);
