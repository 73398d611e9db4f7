// avp test judges this file as a Write of src/checkout.ts: each annotated line must be flagged, nothing else.
export function checkout(cart: { total: number }) {
  console.log('cart', cart); // avp:expect console-log
  if (cart.total < 0) {
    console.error('negative total', cart); // real error logging: let through
    debugger; // avp:expect debugger
  }
  return cart.total;
}
