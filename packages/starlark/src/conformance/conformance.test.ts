import { describe, expect, it } from "vitest";
import { builtinCases } from "./builtins.cases.js";
import { checkCase } from "./case.js";
import { lexicalCases } from "./lexical.cases.js";
import { methodCases } from "./methods.cases.js";
import { operatorCases } from "./operators.cases.js";
import { resolveCases } from "./resolve.cases.js";
import { statementCases } from "./statements.cases.js";
import { typeCases } from "./types.cases.js";

const tables = {
  ...lexicalCases,
  ...typeCases,
  ...operatorCases,
  ...statementCases,
  ...resolveCases,
  ...builtinCases,
  ...methodCases,
};

for (const [section, cases] of Object.entries(tables)) {
  describe(section, () => {
    cases.forEach((c, i) => {
      it(`${i}: ${(c.expr ?? c.file ?? "").slice(0, 60)}`, () => {
        expect(checkCase(c)).toBeUndefined();
      });
    });
  });
}
