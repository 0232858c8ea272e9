import { describe, expect, it } from "vitest";
import { writeOrder } from "./tags.js";

describe("writeOrder", () => {
  it("writes the named tag first and the exact tag last, whichever entry asks for which tag", () => {
    const plans = [
      ["1.2.0_20250101120000", "1.2.0", "1.2"],
      ["1.2.0_20250101120000", "1.2.0", "1.2", "1", "latest"],
    ];
    expect(writeOrder(plans, "1.2.0")).toEqual(["1.2.0_20250101120000", "1.2", "1", "latest", "1.2.0"]);
  });

  it("under build_timestamp none the named tag is the exact tag, so it comes last", () => {
    expect(writeOrder([["1.2.0", "1.2", "1", "latest"]], "1.2.0")).toEqual(["1.2", "1", "latest", "1.2.0"]);
  });

  it("keeps the order as planned without the cascade", () => {
    expect(writeOrder([["1.2.0_20250101120000"]], undefined)).toEqual(["1.2.0_20250101120000"]);
  });
});
