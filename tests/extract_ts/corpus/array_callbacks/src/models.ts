export class Order {
  total(): number {
    return 1;
  }
  isOpen(): boolean {
    return true;
  }
}

export class Ledger {
  constructor(private orders: Order[]) {}

  sum(): number {
    return this.orders.filter((o) => o.isOpen()).reduce((acc, o) => acc + o.total(), 0);
  }

  each(): void {
    this.orders.forEach(function (o) {
      o.total();
    });
  }
}
