import CX11
import PasteboardKit

/// Turns an owner's TARGETS into pb's representations, as `wl-paste -l`
/// and `xclip -t TARGETS` list them: every MIME target is a type of its
/// own (`text/plain`, `text/html`, `image/png`, …).
///
/// Only X's text targets, which are not MIME types (`UTF8_STRING`,
/// `STRING`, `TEXT`, `COMPOUND_TEXT`), are folded, together with the MIME
/// name of UTF-8 text itself, into one `text/plain;charset=utf-8`, placed
/// where the first of them stands, which fetches the best of them.
/// Protocol targets (TARGETS, TIMESTAMP, MULTIPLE, …) and other bare X
/// atoms (`PIXMAP`, `TK_WINDOW`, …) are not content and are left out.
enum TargetFolding {
  static let protocolTargets: Set<String> = [
    "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INCR", "NULL", "ATOM_PAIR",
    "x-kde-passwordManagerHint",
  ]

  /// X's own text targets, in pb's order of preference (after
  /// `UTF8_STRING` comes the MIME name of UTF-8 text).
  static let xTextTargets = ["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT"]

  /// Whether `target` is fetched as pb's UTF-8 text.
  static func isFoldedText(_ target: String) -> Bool {
    xTextTargets.contains(target) || MIMEType.same(target, MIMEType.utf8Text)
  }

  /// The types pb shows for `targets` (in the owner's order), each with the
  /// targets that fetch it, best first.
  static func plan(_ targets: [String]) -> [(type: String, targets: [String])] {
    var plan: [(type: String, targets: [String])] = []
    var text: Int?
    for target in targets where !protocolTargets.contains(target) {
      if isFoldedText(target) {
        if let i = text {
          plan[i].targets.append(target)
        } else {
          text = plan.count
          plan.append((MIMEType.utf8Text, [target]))
        }
      } else if target.contains("/"), !plan.contains(where: { $0.type == target }) {
        plan.append((target, [target]))
      }
    }
    if let i = text { plan[i].targets.sort { rank($0) < rank($1) } }
    return plan
  }

  static func representations(
    _ targets: [(atom: Atom, name: String)], requestor: SelectionRequestor, selection: Atom, keepAlive: AnyObject
  ) -> [Representation] {
    let atoms = Dictionary(targets.map { ($0.name, $0.atom) }, uniquingKeysWith: { a, _ in a })
    return plan(targets.map(\.name)).map { entry in
      let content = RemoteContent(
        requestor: requestor, selection: selection, candidates: entry.targets.compactMap { name in atoms[name].map { ($0, name) } },
        isText: entry.type == MIMEType.utf8Text, shownType: entry.type, keepAlive: keepAlive)
      return Representation(type: entry.type, payload: .provider(content))
    }
  }

  private static func rank(_ target: String) -> Int {
    if target == "UTF8_STRING" { return 0 }
    if let i = xTextTargets.firstIndex(of: target) { return i + 1 }
    return 1  // text/plain;charset=utf-8, however spelled
  }
}
