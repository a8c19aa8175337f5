import PasteboardActivities
import PasteboardKit

/// The menu `pb share` shows on a terminal: the activities that can
/// perform, numbered, each with a shortcut letter (the first letter of its
/// title not already taken, else the first free one); the user answers
/// with a number or a letter, `q` or end of input cancels.
enum SharePicker {
  static func pick(from activities: [Activity], on terminal: Terminal) -> Activity? {
    let letters = shortcuts(for: activities.map(\.title))
    var menu = "Share with:\n"
    for (i, activity) in activities.enumerated() {
      menu += "  \(i + 1)) [\(letters[i])] \(VisibleText.escape(activity.title))  (\(activity.activityType))\n"
    }
    terminal.show(menu)
    while true {
      guard let answer = terminal.ask("Number or letter (q to cancel): ")?.trimmingSpaces() else { return nil }
      if answer == "q" || answer == "Q" { return nil }
      if let n = WholeNumber.value(answer, as: Int.self), n >= 1, n <= activities.count { return activities[n - 1] }
      if answer.count == 1, let i = letters.firstIndex(of: Character(answer.lowercased())) { return activities[i] }
      terminal.show("'\(VisibleText.escape(answer))' is not in the menu.\n")
    }
  }

  /// One letter per title, never `q` (which cancels).
  static func shortcuts(for titles: [String]) -> [Character] {
    var used: Set<Character> = ["q"]
    var result: [Character] = []
    for title in titles {
      let candidates = title.lowercased().filter { $0.isLetter && $0.isASCII } + "abcdefghijklmnoprstuvwxyz"
      let letter = candidates.first { !used.contains($0) } ?? "?"
      used.insert(letter)
      result.append(letter)
    }
    return result
  }
}

extension String {
  func trimmingSpaces() -> String {
    String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
  }
}
