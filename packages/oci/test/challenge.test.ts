import { describe, expect, test } from "vitest";
import { pickChallenge } from "../src/auth.js";
import { parseChallenges } from "../src/challenge.js";

describe("parseChallenges", () => {
  test("a Bearer challenge with quoted values holding commas", () => {
    expect(
      parseChallenges(
        'Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:a/b:pull,push repository:c:pull"',
      ),
    ).toEqual([
      {
        scheme: "bearer",
        params: {
          realm: "https://auth.example.com/token",
          service: "registry.example.com",
          scope: "repository:a/b:pull,push repository:c:pull",
        },
      },
    ]);
  });

  test("several challenges in one header, spaces, token values, escapes and case", () => {
    expect(
      parseChallenges(
        'Basic realm="Registry Realm", BEARER Realm = "https://a/t" , service=reg, error="insufficient_scope", x="a\\"b"',
      ),
    ).toEqual([
      { scheme: "basic", params: { realm: "Registry Realm" } },
      {
        scheme: "bearer",
        params: { realm: "https://a/t", service: "reg", error: "insufficient_scope", x: 'a"b' },
      },
    ]);
  });

  test("bare schemes and garbage", () => {
    expect(parseChallenges("Basic")).toEqual([{ scheme: "basic", params: {} }]);
    expect(parseChallenges("")).toEqual([]);
    expect(parseChallenges(', , Basic realm="x",')).toEqual([{ scheme: "basic", params: { realm: "x" } }]);
  });

  test("the challenge to answer: Bearer with a realm before Basic", () => {
    expect(
      pickChallenge(parseChallenges('Basic realm="x", Bearer realm="https://t/token",service="s"')),
    ).toEqual({
      scheme: "bearer",
      realm: "https://t/token",
      service: "s",
    });
    expect(pickChallenge(parseChallenges('Basic realm="x"'))).toEqual({ scheme: "basic" });
    expect(pickChallenge(parseChallenges("Negotiate"))).toBeUndefined();
  });
});
