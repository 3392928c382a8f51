import { CloseCircleFilled } from '@ant-design/icons';
import { Messages } from '@ebs/contract';

/**
 * What antd's `<Result status="error">` shows, without it: Result carries its 403/404/500
 * illustrations (about 32 kB) into the start-up bundle that every route loads.
 */
export function SomethingWentWrong() {
  return (
    <div className="something-went-wrong">
      <div className="something-went-wrong-icon">
        <CloseCircleFilled />
      </div>
      <div className="something-went-wrong-title">{Messages.somethingWentWrong}</div>
    </div>
  );
}
