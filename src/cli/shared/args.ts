import { parseArgs } from "node:util";

import { getAddress, isAddress, parseEther, type Address } from "viem";

import { UsageError } from "../../errors/cli";

/** Option specs as `node:util` `parseArgs` takes them (strings and booleans, no short forms needed). */
export type OptionSpecs = Record<string, { type: "string" | "boolean" }>;

type Values<T extends OptionSpecs> = { [K in keyof T]?: T[K]["type"] extends "boolean" ? boolean : string };

/** Parses `argv` strictly: an unknown option, a missing value or a stray positional is a `UsageError`. */
export function parseCommandArgs<T extends OptionSpecs>({
  argv,
  options,
  allowPositionals = false,
}: {
  argv: string[];
  options: T;
  allowPositionals?: boolean;
}): { values: Values<T>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals, strict: true });
    return { values, positionals };
  } catch (error) {
    // node's messages are one readable sentence ("Unknown option '--x'", "Option '--bond <value>' argument missing").
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/, ""));
  }
}

/**
 * node's `parseArgs` error as a one-line `UsageError`, for commands that call `parseArgs` themselves (`verify`,
 * `digest`, `sign`). Like `parseCommandArgs` it drops the hint about positionals after `--`, but it keeps node's other
 * sentences, joined: for `--now -1` they say to write `--now=-1`.
 */
export function argsUsageError(error: unknown): UsageError {
  const text = error instanceof Error ? error.message : String(error);
  return new UsageError(
    text
      .replace(/\. To specify a positional argument[^]*$/, "")
      .split("\n")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .join(" "),
  );
}

const etherPattern = /^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/;

/** `1.5` (ether, at most 18 decimals, no sign or exponent) as wei; anything else is a `UsageError`. */
export function parseEtherOption(flag: string, text: string | undefined): bigint {
  if (text === undefined) throw new UsageError(`${flag} <eth> is required`);
  if (!etherPattern.test(text)) {
    throw new UsageError(`${flag} "${text.slice(0, 40)}" is not an amount of ETH: write it in ether, e.g. ${flag} 1.5`);
  }
  return parseEther(text);
}

/** A 0x address in any case (no checksum check), returned checksummed; anything else is a `UsageError`. */
export function parseAddressOption(flag: string, text: string): Address {
  if (!isAddress(text, { strict: false })) {
    throw new UsageError(`${flag} "${text.slice(0, 50)}" is not an address: pass 0x followed by 40 hex digits`);
  }
  return getAddress(text);
}
