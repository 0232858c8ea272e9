import { describe, expect, it } from "vitest";
import { type FaultAction, type RecordedRequest, randomFaults } from "./index.js";

const request: RecordedRequest = { method: "GET", url: "/v2/", headers: {} };

function run(plan: ReturnType<typeof randomFaults>, count: number): FaultAction[] {
  return Array.from({ length: count }, (_, index) => plan(request, index));
}

function kind(action: FaultAction): string {
  if (typeof action === "string") return action;
  return "status" in action ? String(action.status) : `delay ${action.delayMs}`;
}

describe("randomFaults", () => {
  const options = { drop: 0.2, serverError: 0.2, tooManyRequests: 0.2, slow: 0.2, maxFaults: 1000 };

  it("is deterministic for a seed and differs between seeds", () => {
    const first = run(randomFaults({ seed: 42, ...options }), 200).map(kind);
    const again = run(randomFaults({ seed: 42, ...options }), 200).map(kind);
    const other = run(randomFaults({ seed: 43, ...options }), 200).map(kind);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it("injects every kind of fault it is given, with Retry-After on 429 and the slow delay", () => {
    const actions = run(randomFaults({ seed: 7, ...options, retryAfterSeconds: 2, slowMs: 5 }), 400);
    const kinds = new Set(actions.map(kind));
    for (const expected of ["pass", "drop", "429", "delay 5"]) expect(kinds).toContain(expected);
    expect([...kinds].some((k) => ["500", "502", "503"].includes(k))).toBe(true);
    const limited = actions.find((a) => typeof a === "object" && "status" in a && a.status === 429);
    expect(limited).toMatchObject({ headers: { "retry-after": "2" } });
  });

  it("stops injecting after maxFaults, so a retrying client always gets through", () => {
    const actions = run(randomFaults({ seed: 1, drop: 1, maxFaults: 3 }), 10);
    expect(actions).toEqual(["drop", "drop", "drop", "pass", "pass", "pass", "pass", "pass", "pass", "pass"]);
    const bounded = run(randomFaults({ seed: 9, serverError: 0.5 }), 500).filter((a) => a !== "pass");
    expect(bounded.length).toBe(8);
  });

  it("passes everything when no probability is given", () => {
    expect(new Set(run(randomFaults({ seed: 3 }), 100))).toEqual(new Set(["pass"]));
  });

  it("rejects probabilities outside [0, 1] or summing past 1", () => {
    expect(() => randomFaults({ seed: 1, drop: 1.5 })).toThrow(/probabilities/);
    expect(() => randomFaults({ seed: 1, drop: -0.1 })).toThrow(/probabilities/);
    expect(() => randomFaults({ seed: 1, drop: 0.6, slow: 0.6 })).toThrow(/probabilities/);
  });
});
