// A class with a private field and a static counter.
class Cart {
  #items = [];
  static made = 0;
  constructor(owner) { this.owner = owner; Cart.made++; }
  add(item) { this.#items.push(item); return this; }
  get total() { return this.#items.reduce((s, i) => s + i.total, 0); }
}
class BigCart extends Cart {
  describe() { return `${this.owner}:${this.total}`; }
}
const cart = new BigCart("ann");
cart.add(await tools.orders.get({ id: "a" }));
cart.add(await tools.orders.get({ id: "abc" }));
return { d: cart.describe(), made: Cart.made, isCart: cart instanceof Cart };
