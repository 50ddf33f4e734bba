// How the list shows amounts and dates: in the reader's locale.
export const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency, maximumFractionDigits: 2 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
};

/** A date in the console's one format (ui/format.ts). */
export { formatDay as day } from "../ui/format";

export const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
