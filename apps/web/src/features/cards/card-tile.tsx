import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { PaymentCard } from '@ebs/contract';
import { Button, Dropdown, type MenuProps, Tag } from 'antd';
import { CardBrand } from '../../components/card-brand';
import { EditButton } from '../../components/edit-button';
import { formatExpiry, maskedNumber } from '../../lib/card-display';
import { Texts } from '../../lib/texts';
import './cards.css';

const T = Texts.cards;

interface CardTileProps {
  card: PaymentCard;
  disabled: boolean;
  onSetDefault: () => void;
  onRemove: () => void;
  onEdit: () => void;
}

/** One saved card (spec A §2): brand, last four digits, expiry, Default tag, settings menu and edit icon. */
export function CardTile({ card, disabled, onSetDefault, onRemove, onEdit }: CardTileProps) {
  const { brand, last4, exp_month, exp_year } = card.card;
  const menu: MenuProps = {
    items: [
      // spec A §5: disabled for the card that already is the default.
      { key: 'default', label: T.setAsDefault, disabled: card.defaultPaymentMethod },
      { key: 'remove', label: T.remove, danger: true },
    ],
    onClick: ({ key }) => (key === 'default' ? onSetDefault() : onRemove()),
  };

  return (
    <div className="card-tile">
      <div className="card-tile-row">
        <CardBrand brand={brand} />
        <span>
          <EditButton label={T.editCardLabel} disabled={disabled} onClick={onEdit} />
          <Dropdown menu={menu} trigger={['click']} disabled={disabled}>
            <Button type="text" icon={<SettingOutlined />} aria-label={T.cardSettings} />
          </Dropdown>
        </span>
      </div>
      <div className="card-tile-number">{maskedNumber(last4)}</div>
      <div className="card-tile-row">
        <span>{formatExpiry(exp_month, exp_year)}</span>
        {card.defaultPaymentMethod && <Tag color="blue">{T.default}</Tag>}
      </div>
    </div>
  );
}

/** The tile that opens the Add Payment Method dialog. */
export function AddCardTile({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="card-tile card-tile-add" onClick={onClick}>
      <PlusOutlined aria-hidden />
      <span>{T.addCard}</span>
    </button>
  );
}
