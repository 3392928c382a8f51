import { describeTransactionType, type Transaction } from '@ebs/contract';

export interface StatementContent {
  productName: string;
  accountName: string;
  accountId: string;
  dateStart: string;
  dateEnd: string;
  opening: string;
  closing: string;
  transactions: Transaction[];
}

const usd = (amount: number) =>
  amount.toLocaleString('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 5,
  });

/** An account statement: opening balance, every completed transaction of the period, closing balance. */
/** pdfkit is loaded on the first document, not at start: most processes never render one. */
export async function renderStatement(content: StatementContent): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: `Statement ${content.dateStart} to ${content.dateEnd}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(18).text(`${content.productName} statement`);
  doc.fontSize(10).fillColor('#444444').text(`${content.accountName} (${content.accountId})`);
  doc.text(`${content.dateStart} to ${content.dateEnd} (UTC)`);
  doc
    .moveDown()
    .fillColor('#000000')
    .fontSize(11)
    .text(`Opening balance: ${usd(Number(content.opening))}`);
  doc.moveDown(0.5);
  for (const tx of content.transactions) {
    const when = tx.createdAt.replace('T', ' ').slice(0, 19);
    doc.fontSize(10).text(`${when}   ${describeTransactionType(tx.type).padEnd(28)}   ${usd(tx.amount)}`);
  }
  if (content.transactions.length === 0) doc.fontSize(10).text('No transactions in this period.');
  doc
    .moveDown(0.5)
    .fontSize(11)
    .text(`Closing balance: ${usd(Number(content.closing))}`);
  doc.end();
  return done;
}
