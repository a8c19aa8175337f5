import CX11

/// The atoms pb uses, interned in one round trip when a connection opens.
struct Atoms {
  static let names = [
    "CLIPBOARD", "TARGETS", "MULTIPLE", "TIMESTAMP", "INCR", "ATOM_PAIR",
    "SAVE_TARGETS", "CLIPBOARD_MANAGER", "DELETE", "NULL", "UTF8_STRING", "TEXT",
    "text/plain;charset=utf-8", "text/plain", "x-kde-passwordManagerHint",
    "PB_SELECTION", "PB_TIMESTAMP", "PB_TARGETS", "PB_OWNED_AT", "COMPOUND_TEXT",
  ]

  let clipboard, targets, multiple, timestamp, incr, atomPair: Atom
  let saveTargets, clipboardManager, delete, null, utf8String, text: Atom
  let mimeUTF8Text, mimePlainText, passwordHint: Atom
  /// pb's transfer properties on its own window (never one per request:
  /// atoms are never freed). `transfer` (`PB_SELECTION`) also tells a pb
  /// owner that the requestor is pb, which takes larger chunks.
  let transfer, timestampProperty, targetsProperty: Atom
  /// A property on a pb owner's window holding its TIMESTAMP, so that a
  /// reader learns it from the server without waking the owner.
  let ownedAtProperty: Atom
  let compoundText: Atom
  let string: Atom = 31  // XA_STRING
  let atom: Atom = 4  // XA_ATOM
  let integer: Atom = 19  // XA_INTEGER

  init(_ a: [Atom]) {
    (clipboard, targets, multiple, timestamp, incr, atomPair) = (a[0], a[1], a[2], a[3], a[4], a[5])
    (saveTargets, clipboardManager, delete, null, utf8String, text) = (a[6], a[7], a[8], a[9], a[10], a[11])
    (mimeUTF8Text, mimePlainText, passwordHint) = (a[12], a[13], a[14])
    (transfer, timestampProperty, targetsProperty, ownedAtProperty) = (a[15], a[16], a[17], a[18])
    compoundText = a[19]
  }

  /// The text targets pb offers for text, in its order of preference.
  var textTargets: [Atom] { [utf8String, mimeUTF8Text, mimePlainText, string, text] }
}
