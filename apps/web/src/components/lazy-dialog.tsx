import { type ComponentType, lazy, Suspense } from 'react';

/**
 * A dialog, drawer or rarely shown bar whose code is fetched when it is first rendered: its antd Modal,
 * Form, Drawer or Alert stay out of the page's first download (the "every route ≤ 350 KB gzip" target
 * of bench/web.bench.ts). Nothing shows while the chunk loads; the component then appears as it would have.
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(async () => {
    const Loaded = await load();
    return { default: ({ props }: { props: P }) => <Loaded {...props} /> };
  });
  return (props: P) => (
    <Suspense fallback={null}>
      <Dialog props={props} />
    </Suspense>
  );
}
