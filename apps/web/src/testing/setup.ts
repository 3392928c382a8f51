import { configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
import { vi } from 'vitest';
import { leaveOutAntdStyles } from './antd-styles';

// The web tests share two cores with the server's tests and their chain nodes in `npm test`: give
// findBy/waitFor the time a loaded machine needs, rather than the library's default second.
configure({ asyncUtilTimeout: 10_000 });

// The files of the `web` project share a worker's modules and its jsdom window (vitest.config.ts),
// so that antd and React load once per worker. Each file starts as a page load would: the app's
// own modules fresh (the session, the query cache, the toast binding, timers), no toast, dialog or
// notice of antd's still open, empty storage, at the site's root (the app sets no cookie of its own).
vi.resetModules();
// As the start-up does first (startSession), the HTTP client acts on the session: a test that signs
// a user in sends their token and account, and an expired token renews or signs out. Imported
// after the reset, so that the link is between the modules the file itself imports.
const { linkApiToSession } = await import('../session/api-link');
linkApiToSession();
message.destroy();
notification.destroy();
Modal.destroyAll();
localStorage.clear();
sessionStorage.clear();
window.history.replaceState(null, '', '/');
leaveOutAntdStyles();
