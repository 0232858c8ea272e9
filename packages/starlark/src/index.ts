// @pkg/starlark: a Starlark interpreter. See README.md for the language choices and the host API.
export {
  type CallFrame,
  type Diagnostic,
  type EvalErrorKind,
  formatPosition,
  type Position,
  StarlarkCancel,
  StarlarkError,
  StarlarkEvalError,
  StarlarkFail,
  StarlarkSyntaxError,
} from "./errors.js";
export { Builtin, type BuiltinImpl, parseSignature, type Signature } from "./eval/builtin.js";
export { StarlarkFunction } from "./eval/function.js";
export { Thread, type ThreadOptions } from "./eval/thread.js";
export { type ExecOptions, type ExecRequest, evalExpression, execModule, type ModuleResult } from "./exec.js";
export {
  asBool,
  asInt,
  asList,
  asString,
  asStringDict,
  asStringList,
  optional,
  toJS,
  toStarlark,
} from "./host/convert.js";
export {
  EnumValue,
  enumType,
  type HostArgs,
  hostFunction,
  Namespace,
  namespace,
  Struct,
  type StructOptions,
  struct,
} from "./host/host.js";
export { Bytes } from "./values/bytes.js";
export { compare, equals } from "./values/compare.js";
export { Dict, SSet } from "./values/dict.js";
export { float, SFloat } from "./values/float.js";
export { repr, str } from "./values/format.js";
export { List, Tuple, tuple } from "./values/list.js";
export { Range } from "./values/range.js";
export { Callable, Printer, SValue, truth, typeName, type Value } from "./values/value.js";
