import { isForwardingResource, resourceTitle } from '@ebs/contract';
import { Card } from 'antd';
import { useUsageResources } from '../api/usage-queries';
import { Texts } from '../lib/texts';
import { unitPriceText } from '../lib/unit-price';

const T = Texts.billing;

/**
 * The unit price of every billable resource by network name, in a plain table: the Services page's
 * list of what a call and a forward cost (Billing Overview's Prices tab adds this month's usage).
 */
export function PriceList({ accountId }: { accountId: string }) {
  const resources = useUsageResources(accountId).data;
  if (!resources) return null;
  return (
    <Card title={T.pricesListTitle} className="prices-card">
      <table className="price-list">
        <thead>
          <tr>
            <th scope="col">{T.service}</th>
            <th scope="col">{T.unitPrice}</th>
          </tr>
        </thead>
        <tbody>
          {resources.map(({ resourceName, unitPrice }) => (
            <tr key={resourceName}>
              <td>{resourceTitle(resourceName)}</td>
              <td>
                {unitPriceText(unitPrice)} {isForwardingResource(resourceName) ? T.perForward : T.perComputeUnit}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
