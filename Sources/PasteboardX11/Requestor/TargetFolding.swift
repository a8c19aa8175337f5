import CX11
import PasteboardKit

/// Turns an owner's TARGETS into pb's representations.
///
/// All text targets (UTF8_STRING, STRING, TEXT, text/plain and its
/// charset variants) become one `text/plain;charset=utf-8`, placed where
/// the owner's first text target was, which fetches the best of them.
/// MIME targets (`image/png`, `text/html`, …) stay as they are. Protocol
/// targets (TARGETS, TIMESTAMP, MULTIPLE, …) and other bare X atoms are
/// not content and are left out.
enum TargetFolding {
  static let protocolTargets: Set<String> = [
    "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "DELETE", "INCR", "NULL", "ATOM_PAIR",
    "x-kde-passwordManagerHint",
  ]

  /// Text targets in pb's order of preference.
  static let textOrder = ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain;charset=UTF-8", "STRING", "TEXT", "text/plain"]

  static func isTextTarget(_ name: String) -> Bool {
    MIMEType.isPlainText(name) || textOrder.contains(name)
  }

  static func representations(
    _ targets: [(atom: Atom, name: String)], requestor: SelectionRequestor, selection: Atom, keepAlive: AnyObject
  ) -> [Representation] {
    var reps: [Representation] = []
    var textPlaced = false
    let text = targets.filter { isTextTarget($0.name) }.sorted { rank($0.name) < rank($1.name) }
    for target in targets where !protocolTargets.contains(target.name) {
      if isTextTarget(target.name) {
        guard !textPlaced else { continue }
        textPlaced = true
        let content = RemoteContent(
          requestor: requestor, selection: selection, candidates: text, isText: true,
          shownType: MIMEType.utf8Text, keepAlive: keepAlive)
        reps.append(Representation(type: MIMEType.utf8Text, payload: .provider(content)))
      } else if target.name.contains("/") {
        let content = RemoteContent(
          requestor: requestor, selection: selection, candidates: [target], isText: false,
          shownType: target.name, keepAlive: keepAlive)
        reps.append(Representation(type: target.name, payload: .provider(content)))
      }
    }
    return reps
  }

  private static func rank(_ name: String) -> Int {
    if let i = textOrder.firstIndex(of: name) { return i }
    return MIMEType.same(name, MIMEType.utf8Text) ? 1 : textOrder.count
  }
}
