import { configure } from '@testing-library/react';
import { leaveOutAntdStyles } from './antd-styles';

// The web tests share two cores with the server's tests and their chain nodes in `npm test`: give
// findBy/waitFor the time a loaded machine needs, rather than the library's default second.
configure({ asyncUtilTimeout: 10_000 });

leaveOutAntdStyles();
