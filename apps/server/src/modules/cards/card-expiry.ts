/** A card expires at the end of its month. */
export const isExpired = (month: number, year: number, now = new Date()) => Date.UTC(year, month, 1) <= now.getTime();
