import { Grid } from 'antd';
import { Outlet } from 'react-router-dom';
import { usePublicConfig } from '../../api/public-config';
import { Texts } from '../../lib/texts';

/**
 * Two columns: the form on the left, branding on the right (hidden on small screens, spec B §9),
 * where a phone still shows the product's name above the form.
 */
export function AuthLayout() {
  const productName = usePublicConfig()?.productName ?? Texts.productNameFallback;
  const phone = Grid.useBreakpoint().md === false;
  return (
    <div className="auth-layout">
      <main className="auth-form-column">
        <div className="auth-form">
          {phone && <p className="auth-phone-name">{productName}</p>}
          <Outlet />
        </div>
      </main>
      <aside className="auth-brand">
        <p className="auth-brand-name">{productName}</p>
        <p className="auth-brand-tagline">{Texts.tagline}</p>
      </aside>
    </div>
  );
}
