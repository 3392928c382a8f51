import { Outlet } from 'react-router-dom';
import { usePublicConfig } from '../../api/public-config';
import { Texts } from '../../lib/texts';

/** Two columns: the form on the left, branding on the right (hidden on small screens). */
export function AuthLayout() {
  const productName = usePublicConfig()?.productName ?? Texts.productNameFallback;
  return (
    <div className="auth-layout">
      <main className="auth-form-column">
        <div className="auth-form">
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
