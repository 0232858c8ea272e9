// Expressions and small programs on which Starlark and Python 3 agree, for a cross-check against
// python3. Only these subsets are compared (where the two languages differ, they are left out):
// - ints of any size: + - * // % (floored, both), & | ^ ~ << >> (shift counts below 2^16), comparisons;
// - floats: + - * / // % and comparisons (compared bit for bit), int/float mixing, float() of
//   decimal text, int() of floats;
// - strings of BMP characters (Python indexes code points, this implementation UTF-16 code units:
//   the same for the BMP): indexing, slicing with steps, + and *, `in`, and the methods whose
//   specification matches Python's (not str(float) past 1e16 and other formatting of floats by
//   str(), not repr() of strings, which Starlark double-quotes, not splitlines() on separators
//   other than \n and \r, not find() with a start beyond the end);
// - % formatting with %s of non-floats, %d %i %o %x %X %e %E %f %F %c %%; str.format with
//   automatic, numbered and named fields of non-float values;
// - lists, tuples, dicts (insertion order) and sets (compared as sorted), comprehensions (not dict
//   literals with a repeated key, which Starlark refuses);
// - sorted (stable, key=, reverse=), min, max, len, reversed, enumerate, zip, any, all, abs, bool,
//   int(text, base) without underscores or spaces, list, tuple, dict, set (wrapped in list() where
//   Python returns an iterator or a view).
// A case is an expression, or a program (it has a newline) whose global `result` is compared.

const ints = [
  "0",
  "1",
  "-1",
  "7",
  "-7",
  "3",
  "-3",
  "2147483648",
  "-2147483648",
  "9007199254740991",
  "9007199254740993",
  "-9007199254740992",
  "100000000000000000000",
  "-1000000000000000000",
  "123456789012345678901234567890",
  "-98765432109876543210",
  "(1 << 64) - 1",
  "-(1 << 100)",
];

function intArithmetic(): string[] {
  const vals = ints;
  const out: string[] = [];
  for (const a of vals) {
    for (const b of vals) {
      out.push(`(${a}) + (${b})`, `(${a}) - (${b})`, `(${a}) * (${b})`);
      if (b !== "0") out.push(`(${a}) // (${b})`, `(${a}) % (${b})`);
      out.push(
        `(${a}) & (${b})`,
        `(${a}) | (${b})`,
        `(${a}) ^ (${b})`,
        `(${a}) < (${b})`,
        `(${a}) == (${b})`,
      );
    }
    out.push(`~(${a})`, `-(${a})`, `(${a}) >> 3`, `(${a}) << 5`, `(${a}) >> 70`, `(${a}) << 70`, `abs(${a})`);
  }
  return out;
}

const floats = ["0.0", "-0.0", "1.5", "-2.25", "3.0", "1e10", "-7.5", "0.1", "1e-5", "123456.789"];

function floatArithmetic(): string[] {
  const out: string[] = [];
  for (const a of floats) {
    for (const b of [...floats, "2", "-3"]) {
      out.push(`${a} + ${b}`, `${a} - ${b}`, `${a} * ${b}`, `${a} < ${b}`, `${a} == ${b}`);
      if (Number(b) !== 0) out.push(`${a} / ${b}`, `${a} // ${b}`, `${a} % ${b}`);
    }
    out.push(`int(${a})`, `-(${a})`, `abs(${a})`);
  }
  return out;
}

const words = [
  "",
  "a",
  "abc",
  "Hello, World",
  "  padded\t",
  "a,b,,c",
  "banana",
  "MiXeD cAsE 42",
  "one two  three",
  "x\ny\r\nz",
];

function stringMethods(): string[] {
  const out: string[] = [];
  for (const w of words) {
    const s = JSON.stringify(w);
    out.push(
      `len(${s})`,
      `${s}.upper()`,
      `${s}.lower()`,
      `${s}.capitalize()`,
      `${s}.title()`,
      `${s}.strip()`,
      `${s}.lstrip()`,
      `${s}.rstrip()`,
      `${s}.strip("ab ")`,
      `${s}.split()`,
      `${s}.split(None, 1)`,
      `${s}.rsplit(None, 1)`,
      `${s}.split(",")`,
      `${s}.split("a", 1)`,
      `${s}.rsplit("a", 1)`,
      `${s}.splitlines()`,
      `${s}.splitlines(True)`,
      `${s}.partition("a")`,
      `${s}.rpartition("a")`,
      `${s}.replace("a", "<>")`,
      `${s}.replace("a", "", 1)`,
      `${s}.replace("", "-")`,
      `${s}.count("a")`,
      `${s}.count("a", 1)`,
      `${s}.find("a")`,
      `${s}.rfind("a")`,
      `${s}.find("a", 1, 4)`,
      `${s}.startswith("a")`,
      `${s}.endswith(("c", "a"))`,
      `${s}.removeprefix("ba")`,
      `${s}.removesuffix("na")`,
      `${s}.isalpha()`,
      `${s}.isalnum()`,
      `${s}.isdigit()`,
      `${s}.islower()`,
      `${s}.isupper()`,
      `${s}.isspace()`,
      `${s}.istitle()`,
      `${s}[::-1]`,
      `${s}[1:]`,
      `${s}[-3:]`,
      `${s}[::2]`,
      `${s}[1:-1:3]`,
      `${s} * 2`,
      `"a" in ${s}`,
      `${s} < "b"`,
      `"-".join(${s}.split())`,
    );
  }
  return out;
}

const slices = [
  "[:]",
  "[1:]",
  "[:-1]",
  "[::2]",
  "[::-1]",
  "[1::3]",
  "[-2::-2]",
  "[5:1:-1]",
  "[-100:100]",
  "[3:3]",
  "[7::-3]",
];

function sequenceSlices(): string[] {
  const out: string[] = [];
  for (const seq of ["[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]", "(1, 2, 3)", '"abcdefghij"', "[]"]) {
    for (const sl of slices) out.push(`${seq}${sl}`);
  }
  return out;
}

const formatting = [
  '"%s and %s" % ("a", 1)',
  '"%d" % 42',
  '"%d" % -42',
  '"%i" % (1 << 70)',
  '"%o" % 511',
  '"%x" % 48879',
  '"%X" % 48879',
  '"%x" % -255',
  '"%e" % 12345.678',
  '"%E" % 0.000123',
  '"%f" % 3.14159',
  '"%F" % -2.5',
  '"%f" % 1e20',
  '"%e" % 0.0',
  '"%c%c" % (72, 105)',
  '"100%%"  % ()',
  '"%s" % [1, 2]',
  '"%s" % (None,)',
  '"%r" % 12',
  '"%s-%s" % (True, False)',
  '"%d%%" % 50',
  '"{} {}".format(1, "b")',
  '"{1}{0}{1}".format("a", "b")',
  '"{x}-{y}".format(x=1, y=[2])',
  '"{{}}{}".format(3)',
  '"{0!s}".format(7)',
];

const builtins = [
  "sorted([5, 2, 8, 1, 9, 3])",
  "sorted([5, 2, 8, 1, 9, 3], reverse=True)",
  'sorted(["bb", "a", "ccc", "dd"], key=len)',
  'sorted(["bb", "a", "ccc", "dd"], key=len, reverse=True)',
  "sorted([(2, 'b'), (1, 'z'), (2, 'a')])",
  "sorted([3.5, -1, 2, 0.5])",
  'sorted(["B", "a", "C", "b"])',
  'max(["apple", "fig", "banana"], key=len)',
  'min(["apple", "fig", "banana"], key=len)',
  "max(3, 9, 2)",
  "min([4, -1, 7])",
  "max([1, 2.5])",
  "list(reversed([1, 2, 3]))",
  "list(enumerate(['a', 'b'], 5))",
  "list(zip([1, 2, 3], 'ab'.split('x') + ['c', 'd']))",
  "any([0, '', None])",
  "all([1, 'x', [0]])",
  "abs(-12)",
  "bool([])",
  'int("ff", 16)',
  'int("-0x1f", 0)',
  'int("0b101", 0)',
  'int("0o17", 8)',
  'int("z", 36)',
  'int("123456789012345678901234567890")',
  'float("2.5e3")',
  'float("-.5")',
  "int(-3.99)",
  "int(1e18)",
  "list(range(2, 20, 3))",
  "list(range(10, -5, -4))",
  "len(range(0, 100, 7))",
  "7 in range(0, 20, 7)",
  "tuple([1, 2])",
  "dict([('a', 1), ('b', 2)], c=3)",
  "list({'b': 1, 'a': 2}.items())",
  "list({'b': 1, 'a': 2}.keys())",
  "set([3, 1, 3, 2])",
  "set([1, 2, 3]) & set([2, 3, 4])",
  "set([1, 2]) | set([5])",
  "set([1, 2, 3]) - set([2])",
  "set([1, 2]) ^ set([2, 3])",
  "set([1, 2]).issubset([1, 2, 3])",
  "str(12345)",
  "repr([1, (2,), None, True])",
  "str((1, 2))",
  "[x * y for x in range(4) for y in range(x) if (x + y) % 2]",
  "{k: len(k) for k in ['a', 'bb', 'a']}",
  "[[i] * i for i in range(4)]",
  "{'a': 1} == {'a': 1.0}",
  "[1, 2] < [1, 2, 0]",
  "(1, 'a') < (1, 'b')",
  "[1] * 3 + [2] * 2",
  "(1 << 100) > 1e30",
  "0.1 + 0.2 == 0.3",
  "1 == 1.0",
  "[i for i in [3, 1, 2] if i != 1]",
  "dict([(1, 'a'), (1.0, 'b')])",
];

const programs = [
  "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\nresult = [fib(n) for n in [0, 1, 2, 10, 90, 200]]",
  "def fact(n):\n    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\nresult = (fact(30), fact(30) // fact(28), fact(25) % 1000007)",
  'def count(text):\n    d = {}\n    for w in text.split():\n        d[w] = d.get(w, 0) + 1\n    return d\nresult = count("the cat and the hat and the bat")',
  "def primes(n):\n    sieve = [True] * n\n    out = []\n    for i in range(2, n):\n        if sieve[i]:\n            out.append(i)\n            for j in range(i * i, n, i):\n                sieve[j] = False\n    return out\nresult = primes(60)",
  "def make():\n    acc = []\n    def add(x):\n        acc.append(x)\n        return len(acc)\n    return add, acc\nadd, acc = make()\nresult = (add(1), add('b'), acc)",
  "def f(a, b=2, *args, **kw):\n    return (a, b, args, sorted(kw.items()))\nresult = [f(1), f(1, 3, 4, 5, z=1, y=2), f(*[7, 8], **{'k': 9})]",
  "def collatz(n):\n    steps = 0\n    for _ in range(1000):\n        if n == 1:\n            break\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n        steps += 1\n    return steps\nresult = [collatz(n) for n in range(1, 20)]",
  "def bits(n):\n    out = []\n    for i in range(70):\n        if (n >> i) & 1:\n            out.append(i)\n    return out\nresult = bits((1 << 65) | (1 << 3) | 5)",
  "def table():\n    rows = []\n    for i in range(1, 4):\n        rows.append(' '.join(['%d' % (i * j) for j in range(1, 4)]))\n    return '\\n'.join(rows)\nresult = table()",
  "def group(xs):\n    g = {}\n    for x in xs:\n        g.setdefault(x % 3, []).append(x)\n    return sorted(g.items())\nresult = group(range(10))",
  "def flat(xss):\n    return [x for xs in xss for x in xs]\nresult = flat([[1, 2], [], [3], [4, 5, 6]])",
  "def acc():\n    t = 0.0\n    for i in range(1, 100):\n        t += 1.0 / i\n    return t\nresult = acc()",
  "def mm(a, b):\n    return [[sum_([a[i][k] * b[k][j] for k in range(len(b))]) for j in range(len(b[0]))] for i in range(len(a))]\ndef sum_(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\nresult = mm([[1, 2], [3, 4]], [[5, 6], [7, 8]])",
];

/** The cases by family. */
export const pythonCases: Record<string, string[]> = {
  "int arithmetic": intArithmetic(),
  "float arithmetic": floatArithmetic(),
  "string methods": stringMethods(),
  slicing: sequenceSlices(),
  formatting,
  "built-ins and collections": builtins,
  programs,
};
