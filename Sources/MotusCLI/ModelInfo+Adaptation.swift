// `motus model-info`'s lines for a model adapted by `motus adapt`.

import Motus

extension ModelInfo.Summary {
  static func describe(_ adaptation: AdaptationRecord) -> String {
    var out = "  adapted from model \(Excerpt.printable(adaptation.baseModelDigest))"
    out += " (trained on data \(Excerpt.printable(adaptation.baseDataDigest)))\n"
    out += "  adaptation data digest: \(Excerpt.printable(adaptation.dataDigest))\n"
    let counts = adaptation.windowsPerClass.sorted { $0.key < $1.key }
      .map { "\(Excerpt.printable($0.key)) \($0.value)" }
    out += "  adaptation windows: \(counts.joined(separator: ", "))\n"
    let settings = adaptation.settings.sorted { $0.key < $1.key }
      .map { "\(Excerpt.printable($0.key))=\(Excerpt.printable($0.value))" }
    out += "  adaptation settings: \(settings.joined(separator: ", "))\n"
    return out
  }
}
