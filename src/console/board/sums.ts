// Deal sums of a sales column, per currency (C14), in the reader's locale.
import type { Dossier } from "../api/client";

export function dealSums(cards: Dossier[]): { currency: string; sum: number }[] {
  const sums = new Map<string, number>();
  for (const card of cards) {
    if (card.deal_size === null || card.deal_currency === null) continue;
    sums.set(card.deal_currency, (sums.get(card.deal_currency) ?? 0) + card.deal_size);
  }
  return [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([currency, sum]) => ({ currency, sum }));
}

export const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
};

/** Overdue (C5): active, and the stage's deadline has passed. */
export const isOverdue = (dossier: Dossier, now: number) =>
  dossier.status === "active" && dossier.stage_due_at !== null && Date.parse(dossier.stage_due_at) < now;
