import { UploadOutlined } from '@ant-design/icons';
import { Button, Input, Typography, Upload } from 'antd';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { addressesInFile, appendAddresses, parseAddresses, readFileText } from './parse-addresses';
import { WebhooksTexts as T } from './webhooks-texts';

interface AddressesInputProps {
  /** Given by Form.Item: the label points at the box by it. */
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  testId: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
}

/**
 * A list of addresses, as a form field: typed or pasted into the box, or added from a file (a CSV
 * export with any columns), read here in the browser. Under it, how many distinct addresses it holds.
 */
export function AddressesInput({
  value = '',
  onChange,
  disabled = false,
  testId,
  'aria-describedby': describedBy,
  ...field
}: AddressesInputProps) {
  const countId = useId();
  const [fileNote, setFileNote] = useState<string | null>(null);
  const parsed = useMemo(() => parseAddresses(value), [value]);
  // A file is read after the click that chose it: its addresses go after the list as it is by then.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);

  const addFile = (file: File) => {
    readFileText(file).then(
      (text) => {
        const found = addressesInFile(text);
        onChange?.(appendAddresses(latest.current, found.addresses));
        setFileNote(T.fileRead(file.name, found.addresses.length, found.skipped.length));
      },
      () => setFileNote(T.fileUnreadable(file.name)),
    );
    // Nothing is uploaded: the file is only read.
    return false;
  };

  return (
    <div className="webhook-addresses-input">
      <Input.TextArea
        {...field}
        aria-describedby={[describedBy, countId].filter(Boolean).join(' ')}
        data-testid={testId}
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
        disabled={disabled}
        rows={6}
        spellCheck={false}
        placeholder={T.addressesPlaceholder}
      />
      <div className="webhook-addresses-tools">
        <Upload
          accept=".csv,.txt,text/csv,text/plain"
          beforeUpload={addFile}
          showUploadList={false}
          multiple={false}
          disabled={disabled}
        >
          <Button icon={<UploadOutlined aria-hidden="true" />} disabled={disabled}>
            {T.uploadCsv}
          </Button>
        </Upload>
        <Typography.Text type="secondary" id={countId} aria-live="polite">
          {T.parsedCount(parsed.addresses.length, parsed.duplicates, parsed.invalid.length)}
        </Typography.Text>
      </div>
      {fileNote && (
        <Typography.Paragraph type="secondary" role="status" className="webhook-file-note">
          {fileNote}
        </Typography.Paragraph>
      )}
    </div>
  );
}
