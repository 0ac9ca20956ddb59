import Foundation
import MotusData

/// A key path as errors print it (`sources[2].labels.walk`), back as coding keys.
package struct JSONKeyPath {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
      self.stringValue = "\(intValue)"
      self.intValue = intValue
    }
  }

  var keys: [CodingKey] = []

  /// `keys` as errors print them: `sources[2].labels.walk` (`whenEmpty` for the top).
  package static func text(_ keys: [any CodingKey], whenEmpty: String = "(top)") -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? whenEmpty : text
  }

  /// nil for `(top)`. Label names containing `.` or `[` are not split correctly; the position
  /// then falls back to the nearest enclosing value.
  init?(_ text: String) {
    guard text != "(top)" else { return nil }
    for part in text.split(separator: ".") {
      var rest = Substring(part)
      if let bracket = rest.firstIndex(of: "[") {
        if bracket > rest.startIndex { keys.append(Key(stringValue: String(rest[..<bracket]))) }
        rest = rest[bracket...]
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
          guard let index = Int(rest[rest.index(after: rest.startIndex)..<close]) else { break }
          keys.append(Key(intValue: index))
          rest = rest[rest.index(after: close)...]
        }
      } else {
        keys.append(Key(stringValue: String(rest)))
      }
    }
  }
}
