export interface ReceiptContent {
  productName: string;
  accountName: string;
  transactionId: string;
  description: string;
  amount: string;
  paidAt: Date;
  card?: string;
  receiptNumber?: string;
}

/** A one-page PDF receipt of a ledger transaction, with the built-in Helvetica (no font files needed). */
/** pdfkit is loaded on the first document, not at start: most processes never render one. */
export async function renderReceipt(content: ReceiptContent): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A5', margin: 40, info: { Title: `Receipt ${content.transactionId}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(18).text(`Receipt from ${content.productName}`);
  doc.moveDown();
  const amount = Number(content.amount).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  const rows: Array<[string, string | undefined]> = [
    ['Amount', amount],
    ['Description', content.description],
    ['Date', content.paidAt.toISOString().replace('T', ' ').slice(0, 19)],
    ['Account', content.accountName],
    ['Payment method', content.card],
    ['Transaction ID', content.transactionId],
    ['Receipt number', content.receiptNumber],
  ];
  for (const [label, value] of rows) {
    if (!value) continue;
    doc.fontSize(9).fillColor('#666666').text(label);
    doc.fontSize(12).fillColor('#000000').text(value);
    doc.moveDown(0.5);
  }
  doc.end();
  return done;
}
