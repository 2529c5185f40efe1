import { expect } from "chai";

/** Asserts a message names none of `addresses` (nor an IPv4 address inside a mapped one), nor any IPv4 or IPv6 address. */
export function expectNoAddress(message: string, addresses: { address: string }[]): void {
  for (const { address } of addresses) {
    expect(message).to.not.include(address);
    const v4 = /(\d{1,3}(\.\d{1,3}){3})$/.exec(address)?.[1];
    if (v4 !== undefined) expect(message).to.not.include(v4);
  }
  expect(message, "an IPv4 address").to.not.match(/\d{1,3}(\.\d{1,3}){3}/);
  expect(message, "an IPv6 address").to.not.match(/[0-9a-f]*::?[0-9a-f]+(:[0-9a-f]*)+/i);
}
