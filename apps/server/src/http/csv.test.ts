import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, plainDecimal } from './csv.ts';

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks, as RFC 4180 does', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 3])).toBe('a,"b,c","say ""hi""","two\nlines",,3\r\n');
  });

  it('writes text a spreadsheet would run as a formula as text, and leaves numbers alone', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('-0.000123')).toBe('-0.000123');
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes decimals without their scale’s trailing zeros', () => {
    expect(plainDecimal('12.500000')).toBe('12.5');
    expect(plainDecimal('10.000000')).toBe('10');
    expect(plainDecimal('-0.000020')).toBe('-0.00002');
    expect(plainDecimal('100')).toBe('100');
  });
});
