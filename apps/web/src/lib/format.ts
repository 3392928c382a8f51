/** spec A §9: available credit is the balance minus amountPending, 2 decimals. */
export const availableCredits = (balance: number, amountPending: number) => (balance - amountPending).toFixed(2);
