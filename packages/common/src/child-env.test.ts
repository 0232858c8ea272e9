import { describe, expect, it } from "vitest";
import { childEnvironment, SIGNING_SECRET_VARIABLES } from "./child-env.js";

describe("childEnvironment", () => {
  it("drops exactly the three signing secret variables and keeps the rest", () => {
    const env = {
      PATH: "/bin",
      PKG_IDENTITY_TOKEN: "t",
      PKG_KEY_PASSWORD: "p",
      PKG_SIGNING_KEY: "k",
      PKG_SIGNING_KEY_2: "kept",
      COSIGN_PASSWORD: "kept too",
    };
    expect(childEnvironment(env)).toEqual({
      PATH: "/bin",
      PKG_SIGNING_KEY_2: "kept",
      COSIGN_PASSWORD: "kept too",
    });
    expect(env.PKG_KEY_PASSWORD).toBe("p");
    expect(SIGNING_SECRET_VARIABLES).toHaveLength(3);
  });
});
