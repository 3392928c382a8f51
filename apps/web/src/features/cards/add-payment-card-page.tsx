import type { PaymentCard } from '@ebs/contract';
import { Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { LoadFailed } from '../../components/load-state';
import { usePaymentCards } from '../../lib/payment-cards';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { AddCardDialog } from './add-card-dialog';
import { useSetDefaultCard } from './card-queries';
import { removalRefusal } from './card-removal';
import { AddCardTile, CardTile } from './card-tile';
import { EditCardDialog } from './edit-card-dialog';
import { RemoveCardDialog } from './remove-card-dialog';

/** /account/:accountId/billings/addPaymentCard (spec A §2): the add tile and one tile per saved card. */
export function AddPaymentCardPage() {
  const accountId = useParams().accountId ?? '';
  const cards = usePaymentCards(accountId);
  const setDefault = useSetDefaultCard(accountId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<PaymentCard | null>(null);
  const [removing, setRemoving] = useState<PaymentCard | null>(null);
  const list = cards.data ?? [];

  useEffect(() => {
    if (cards.error) toast.error(cards.error);
  }, [cards.error]);

  const askRemove = (card: PaymentCard) => {
    const refusal = removalRefusal(list, card);
    if (refusal) toast.error(refusal);
    else setRemoving(card);
  };

  const makeDefault = (card: PaymentCard) => setDefault.mutate(card.id, { onError: (error) => toast.error(error) });

  return (
    <Spin spinning={cards.isLoading || setDefault.isPending}>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.addPaymentCard}</Typography.Title>
      </div>
      <div className="card-tiles">
        <AddCardTile onClick={() => setAdding(true)} />
        {list.map((card) => (
          <CardTile
            key={card.id}
            card={card}
            disabled={setDefault.isPending}
            onSetDefault={() => makeDefault(card)}
            onRemove={() => askRemove(card)}
            onEdit={() => setEditing(card)}
          />
        ))}
      </div>
      {/* Without the list the page would look as if there were no cards: say so, with a retry. */}
      {cards.error && !cards.data && (
        <LoadFailed error={cards.error} onRetry={() => void cards.refetch()} retrying={cards.isFetching} />
      )}
      {adding && <AddCardDialog accountId={accountId} onClose={() => setAdding(false)} />}
      {editing && <EditCardDialog accountId={accountId} card={editing} onClose={() => setEditing(null)} />}
      {removing && <RemoveCardDialog accountId={accountId} card={removing} onClose={() => setRemoving(null)} />}
    </Spin>
  );
}
