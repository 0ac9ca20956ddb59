// Labels for phone-app recordings: the apps write none, so the user names the activity, once
// for every recording (`--label walking`) or per recording (`--label-map 'bike-ride=cycling'`).

import MotusData
import MotusGzip

/// The activity of each phone-app recording.
public struct AppExportLabels: Sendable, Equatable {
  /// Label of every app recording the map does not name.
  public var label: String?
  /// Recording name -> label. A key matches the recording's folder or file name (with or
  /// without `.csv` or `.csv.gz`), or any folder above it, the nearest first.
  public var byName: [String: String]

  public init(label: String? = nil, byName: [String: String] = [:]) {
    self.label = label
    self.byName = byName
  }

  public var isEmpty: Bool { label == nil && byName.isEmpty }

  /// The label of the recording at `path`, and the map key that chose it.
  public func label(forPath path: String) -> (label: String, key: String?)? {
    for component in Self.components(of: path).reversed() {
      for key in [component, Self.withoutCSV(component)] {
        if let label = byName[key] { return (label, key) }
      }
    }
    return label.map { ($0, nil) }
  }

  /// Path components, `.` and empty ones left out.
  static func components(of path: String) -> [String] {
    path.split(separator: "/").map(String.init).filter { $0 != "." && !$0.isEmpty }
  }

  static func withoutCSV(_ name: String) -> String {
    let text = InputFile.textName(name)
    return text.lowercased().hasSuffix(".csv") ? String(text.dropLast(4)) : name
  }
}
