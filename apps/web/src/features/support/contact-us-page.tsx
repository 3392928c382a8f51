import { CONTACT_MESSAGE_MAX, isContactMessageLongEnough, Messages } from '@ebs/contract';
import { Card, Form, Input } from 'antd';
import { useParams, useSearchParams } from 'react-router-dom';
import { SubmitButton } from '../../components/submit-button';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useSession } from '../../session/session-store';
import { useSubmitTicket } from './support-mutations';

const T = Texts.support;

interface ContactFields {
  message?: string;
}

/** /account/:accountId/contactUs (spec A §2): the account, a message and Submit. */
export function ContactUsPage() {
  const accountId = useParams().accountId ?? '';
  const { currentAccount } = useSession();
  const [form] = Form.useForm<ContactFields>();
  // A page that sends the user here may start the message (`?message=`); the user finishes it.
  const [search] = useSearchParams();
  const prefilled = search.get('message')?.slice(0, CONTACT_MESSAGE_MAX) ?? undefined;
  const submit = useSubmitTicket(accountId);
  // The layout makes an account opened by URL current; until then the id alone is known.
  const accountName = currentAccount?.id === accountId ? currentAccount.name : undefined;
  const account = accountName ? `${accountName} (${accountId})` : accountId;

  const onFinish = async ({ message }: ContactFields) => {
    try {
      await submit.mutateAsync({ message: message ?? '' });
      toast.success(Messages.contactReceived);
      // Empty again, also when the message was started by the page that sent the user here.
      form.setFieldsValue({ message: '' });
    } catch {
      // spec A §8: this page shows its own text, not the server's.
      toast.error(Messages.contactSubmitFailed);
    }
  };

  return (
    <Card className="narrow-form">
      <Form<ContactFields>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ message: prefilled }}
        onFinish={onFinish}
      >
        <Form.Item label={T.account} htmlFor="contact-account">
          {/* A text area that grows: a phone shows the whole id on a second line, never cut. */}
          <Input.TextArea id="contact-account" disabled value={account} title={account} autoSize />
        </Form.Item>
        <Form.Item
          name="message"
          label={T.message}
          rules={[
            {
              validator: (_rule, value) =>
                isContactMessageLongEnough(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(Messages.contactMessageTooShort)),
            },
          ]}
        >
          <Input.TextArea rows={6} maxLength={CONTACT_MESSAGE_MAX} placeholder={T.messagePlaceholder} />
        </Form.Item>
        <SubmitButton pending={submit.isPending} block={false}>
          {T.submit}
        </SubmitButton>
      </Form>
    </Card>
  );
}
