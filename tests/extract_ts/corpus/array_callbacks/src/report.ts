import { Order } from "./models";

export function totals(orders: Order[]): number[] {
  return orders.map((o) => o.total());
}

export function labels(orders: Order[], names: string[]): string[] {
  const shown = names.map((n) => n.trim());
  orders.sort((a, b) => a.total() - b.total());
  return orders.map((o: unknown) => String(o)).concat(shown);
}

export function unknownItems(items: any[]) {
  return items.map((x) => x.total());
}
