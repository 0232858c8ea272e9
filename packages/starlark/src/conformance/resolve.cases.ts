// Spec: Name binding and variables (static resolution), Module execution (freezing), and the
// mutation of values being iterated.
import type { Case } from "./case.js";
import { f, fe } from "./helpers.js";

export const resolveCases: Record<string, Case[]> = {
  "name resolution": [
    fe("print(y)", "resolve", "undefined: y", "1:7"),
    fe("def f():\n    if False:\n        g()", "resolve", "undefined: g", "3:9"),
    fe("lne([1])", "resolve", "undefined: lne (did you mean len?)"),
    fe("def f():\n    return undefined_a + undefined_b", "resolve", "undefined: undefined_a", "2:12"),
    fe("x = 1\nx = 2", "resolve", "cannot reassign global x (first bound at case.star:1:1)", "2:1"),
    fe("def x():\n    pass\nx = 1", "resolve", "cannot reassign global x"),
    fe("x = 1\nx += 1", "resolve", "cannot reassign global x", "2:1"),
    fe("x, x = 1, 2", "resolve", "cannot reassign global x", "1:4"),
    f("x = 1\nx = 2\nresult = x", "2", { allowGlobalReassign: true }),
    f("x = 1\nx += 2\nx *= 5\nresult = x", "15", { allowGlobalReassign: true }),
    f("x = [1]\ny = x\nx += [2]\nresult = y", "[1, 2]", { allowGlobalReassign: true }),
    fe("x += 1\nx = 0", "error", "global variable x referenced before assignment", "1:1", {
      allowGlobalReassign: true,
    }),
    fe("return 1", "resolve", "return statement not within a function", "1:1"),
    f(
      'y = "goodbye"\ndef hello():\n    r = []\n    for x in (1, 2):\n        if x == 2:\n            r.append(y)\n        if x == 1:\n            y = "hello"\n    return r\nresult = hello()',
      '["hello"]',
    ),
    fe(
      'def f():\n    print(x)\n    x = "hello"\nf()',
      "error",
      "local variable x referenced before assignment",
      "2:11",
    ),
    fe('print(x)\nx = "hello"', "error", "global variable x referenced before assignment", "1:7"),
    f("def f():\n    return g()\ndef g():\n    return 1\nresult = f()", "1"),
    f("def f():\n    return K\nK = 3\nresult = f()", "3"),
    f("len = lambda x: 42\nresult = len([])", "42"),
    f("def f():\n    len = 1\n    return len\nresult = (f(), len([1]))", "(1, 1)"),
    f("def f(None):\n    return None\nresult = f(3)", "3"),
    f("True = 0\nresult = True", "0"),
    f(
      "def f():\n    x = 1\n    def g():\n        y = 2\n        def h():\n            return x + y\n        return h\n    return g()()\nresult = f()",
      "3",
    ),
    f(
      "def f():\n    xs = []\n    for i in range(3):\n        xs.append(lambda: i)\n    return [g() for g in xs]\nresult = f()",
      "[2, 2, 2]",
    ),
    f("def f(a, b=1):\n    def g():\n        return a + b\n    return g()\nresult = f(1)", "2"),
    fe(
      "def f():\n    def g():\n        return v\n    return g()\n    v = 1\nf()",
      "error",
      "local variable v referenced before assignment",
      "3:16",
    ),
    fe("[x for x in y]", "resolve", "undefined: y", "1:13"),
    fe("x = [y for y in [1]]\nz = y", "resolve", "undefined: y", "2:5"),
    fe(
      "x = 1\nresult = [x for y in [1] for x in [x]]",
      "error",
      "local variable x referenced before assignment",
      "2:36",
    ),
  ],
  freezing: [
    fe("x = freeze([1])\nx.append(2)", "error", "cannot append to frozen list", "2:9"),
    fe('d = freeze({})\nd["a"] = 1', "error", "cannot insert into frozen dict", "2:2"),
    fe("x = freeze([[1]])\nx[0].append(2)", "error", "cannot append to frozen list"),
    fe("x = freeze({'k': [1]})\nx['k'].clear()", "error", "cannot clear frozen list"),
    fe("x = freeze((1, [2]))\nx[1].append(3)", "error", "cannot append to frozen list"),
    fe("s = freeze(set([1]))\ns.add(2)", "error", "cannot insert into frozen set"),
    fe("x = freeze([1])\nx[0] = 2", "error", "cannot assign to element of frozen list"),
    fe("def f():\n    x = freeze([1])\n    x += [2]\nf()", "error", "cannot append to frozen list", "3:7"),
    fe("x = freeze([3, 1])\nx.pop()", "error", "cannot pop from frozen list"),
    fe("x = freeze({'a': 1})\nx.update(b=2)", "error", "cannot insert into frozen dict"),
    fe("x = freeze({'a': 1})\nx.pop('a')", "error", "cannot delete from frozen dict"),
    fe("x = freeze({'a': 1})\nx.setdefault('b')", "error", "cannot insert into frozen dict"),
    fe("def f(x, l=[]):\n    l.append(x)\nfreeze(f)\nf(1)", "error", "cannot append to frozen list", "2:13"),
    fe(
      "def make():\n    acc = []\n    def add():\n        acc.append(1)\n    return add\nadd = freeze(make())\nadd()",
      "error",
      "cannot append to frozen list",
    ),
    f("x = freeze([1])\ny = list(x)\ny.append(2)\nresult = (x, y)", "([1], [1, 2])"),
    f("x = freeze([1])\nresult = x + [2]", "[1, 2]"),
    f("x = freeze({'a': 1})\nresult = (x.get('a'), x.items(), 'a' in x)", '(1, [("a", 1)], True)'),
  ],
  "mutation during iteration": [
    fe(
      "def increment_values(dict):\n    for k in dict:\n        dict[k] += 1\nincrement_values({'one': 1})",
      "error",
      "cannot insert into dict during iteration",
      "3:13",
    ),
    fe(
      "def f():\n    x = [1, 2]\n    for e in x:\n        x.append(e)\nf()",
      "error",
      "cannot append to list during iteration",
      "4:17",
    ),
    fe("x = [1]\ny = [x.append(1) for _ in x]", "error", "cannot append to list during iteration"),
    fe(
      "def f():\n    s = set([1])\n    for e in s:\n        s.add(2)\nf()",
      "error",
      "cannot insert into set during iteration",
    ),
    fe(
      "def f():\n    d = {1: 2}\n    for k in d:\n        d.pop(k)\nf()",
      "error",
      "cannot delete from dict during iteration",
    ),
    fe(
      "def f():\n    x = [1]\n    for e in x:\n        x.clear()\nf()",
      "error",
      "cannot clear list during iteration",
    ),
    f(
      "def f():\n    x = [1, 2]\n    for e in x:\n        pass\n    x.append(3)\n    return x\nresult = f()",
      "[1, 2, 3]",
    ),
    f(
      "def f():\n    x = [1, 2]\n    for e in x:\n        break\n    x.append(3)\n    return x\nresult = f()",
      "[1, 2, 3]",
    ),
    f(
      "def f():\n    x = [1, 2]\n    for e in x:\n        return x\nresult = f()\nresult.append(3)",
      undefined,
    ),
    f(
      "def f():\n    x = [1, 2]\n    for e in list(x):\n        x.append(e)\n    return x\nresult = f()",
      "[1, 2, 1, 2]",
    ),
    f(
      "def f():\n    x = {'a': 1}\n    for k in x:\n        x[k]\n    x['b'] = 2\n    return x\nresult = f()",
      '{"a": 1, "b": 2}',
    ),
  ],
};
