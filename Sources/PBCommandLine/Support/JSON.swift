/// A JSON value, for `--json` output (written by hand: Foundation's encoder
/// would cost start-up time).
indirect enum JSON {
  case string(String)
  case number(Int64)
  /// Change counts use all 64 bits (on X11 the high half is a timestamp).
  case unsigned(UInt64)
  case bool(Bool)
  case null
  case array([JSON])
  /// Keys keep the order given.
  case object([(String, JSON)])

  /// The compact text of the value.
  var text: String {
    switch self {
    case .string(let s): return JSON.quote(s)
    case .number(let n): return String(n)
    case .unsigned(let n): return String(n)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
    case .object(let pairs):
      return "{" + pairs.map { JSON.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
    }
  }

  static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
