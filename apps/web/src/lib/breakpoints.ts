/** spec B §2 layout breakpoints in px; styles.css uses the same numbers. */
export const breakpoints = { xs: 361, sm: 577, md: 769, lg: 993, xl: 1201, xxl: 1401 } as const;
