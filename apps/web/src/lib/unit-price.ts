/** A unit price as set (to 8 decimals), never in exponent form: 0.00002, not 2e-5. */
export const unitPriceText = (price: number) => price.toLocaleString('en-US', { maximumFractionDigits: 8 });
