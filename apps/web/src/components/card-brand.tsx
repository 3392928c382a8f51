import { CreditCardOutlined } from '@ant-design/icons';
import { brandIcon, brandName } from '../lib/card-display';
import './card-brand.css';

/** A card brand's icon: a small badge with the brand's name, Visa for unknown brands (spec A §3). */
export function CardBrand({ brand }: { brand: string }) {
  const icon = brandIcon(brand);
  return (
    <span className={`card-brand card-brand-${icon}`}>
      <CreditCardOutlined aria-hidden />
      {brandName(brand)}
    </span>
  );
}
