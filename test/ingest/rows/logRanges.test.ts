import { expect } from "chai";
import { planLogRanges } from "../../../src/ingest/rows/logRanges";

const range = (fromBlock: bigint, toBlock: bigint) => ({ fromBlock, toBlock });

describe("planLogRanges", () => {
  it("puts pools with nearby cursors in one group, read in consecutive ranges of at most rangeBlocks", () => {
    const plan = planLogRanges({
      members: [
        { address: "0xb", nextBlock: 150n },
        { address: "0xa", nextBlock: 100n },
      ],
      toBlock: 4500n,
      rangeBlocks: 2000,
      maxRanges: 10,
    });
    expect(plan).to.deep.equal([
      {
        members: [
          { address: "0xb", nextBlock: 150n },
          { address: "0xa", nextBlock: 100n },
        ],
        ranges: [range(100n, 2099n), range(2100n, 4099n), range(4100n, 4500n)],
        complete: true,
      },
    ]);
  });

  it("needs no request for pools already past the pinned block", () => {
    expect(
      planLogRanges({ members: [{ address: "0xa", nextBlock: 11n }], toBlock: 10n, rangeBlocks: 5, maxRanges: 5 }),
    ).to.deep.equal([]);
  });

  it("gives the budget to the newest cursors first, so a laggard catches up without starving the others", () => {
    const plan = planLogRanges({
      members: [
        { address: "0xold", nextBlock: 0n },
        { address: "0xnew", nextBlock: 990n },
        { address: "0xnew2", nextBlock: 995n },
      ],
      toBlock: 999n,
      rangeBlocks: 100,
      maxRanges: 4,
    });
    expect(plan.map((g) => g.members.map((m) => m.address))).to.deep.equal([["0xnew2", "0xnew"], ["0xold"]]);
    expect(plan[0]).to.deep.include({ ranges: [range(990n, 999n)], complete: true });
    expect(plan[1]).to.deep.include({
      ranges: [range(0n, 99n), range(100n, 199n), range(200n, 299n)],
      complete: false,
    });
  });

  it("keeps the number of requests bounded by ranges, however many pools", () => {
    const members = Array.from({ length: 1000 }, (_, i) => ({ address: `0x${i}`, nextBlock: 10_000n }));
    const plan = planLogRanges({ members, toBlock: 10_074n, rangeBlocks: 2000, maxRanges: 200 });
    expect(plan).to.have.length(1);
    expect(plan[0].ranges).to.deep.equal([range(10_000n, 10_074n)]);
    expect(plan[0].members).to.have.length(1000);
  });

  it("plans nothing with no budget, and reports the groups as incomplete", () => {
    const plan = planLogRanges({
      members: [{ address: "0xa", nextBlock: 1n }],
      toBlock: 9n,
      rangeBlocks: 5,
      maxRanges: 0,
    });
    expect(plan).to.deep.equal([{ members: [{ address: "0xa", nextBlock: 1n }], ranges: [], complete: false }]);
  });
});
