// Flags of the evidence the hidden Markov smoother asks of each class (`ClassEvidence`):
// `--entry-factors` (by default entering push-up takes sustained evidence: a set lasts) and
// `--evidence-factors`. Shared by the commands that smooth (stream, evaluate, serve,
// through SmoothingOptions) and by the benchmarks, so a benchmark judges what a stream with
// the same flags answers.

import ArgumentParser
import Motus

struct EvidenceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "With --smoothing hmm, class=factor pairs, comma-separated: the switch probability into "
        + "the class as a fraction of the usual, in (0, 1], so that entering it takes "
        + "sustained evidence; 'none' for none (default: "
        + "\(Self.text(ClassEvidence.standard.entryFactors))).",
      discussion: "A push-up set lasts: with the default a stray window or two of push-up-like "
        + "motion (eating, a car) is not answered push-up, while a set from a placement the "
        + "model knows still is "
        + "(docs/measurements.md). Example: `--entry-factors none`.",
      valueName: "list"))
  var entryFactors: String?

  @Option(
    help: ArgumentHelp(
      "With --smoothing hmm, class=factor pairs, comma-separated: each window's probability of "
        + "the class is multiplied by the factor, in (0, 1], before the smoother weighs it; "
        + "'none' leaves every class as the model gives it (default: "
        + "\(Self.text(ClassEvidence.standard.factors))).",
      discussion:
        "Training weighs small classes up so that they are learnt; where they are rare (push-ups "
        + "in everyday life) that weight shows as false alarms, and a factor takes part of it "
        + "back (docs/measurements.md). Example: `--evidence-factors push-up=0.5` (fewer "
        + "push-up answers), `--evidence-factors none`.",
      valueName: "list"))
  var evidenceFactors: String?

  func validate() throws {
    _ = try evidence
  }

  /// A flag given on the command line, named for an error (nil: none given).
  var givenFlag: String? {
    if evidenceFactors != nil { return "--evidence-factors" }
    if entryFactors != nil { return "--entry-factors" }
    return nil
  }

  /// The class evidence the flags ask for: the stream's default where a flag is not given.
  var evidence: ClassEvidence {
    get throws {
      var evidence = ClassEvidence.standard
      if let evidenceFactors {
        evidence.factors = try Self.parse(evidenceFactors, flag: "--evidence-factors")
      }
      if let entryFactors {
        evidence.entryFactors = try Self.parse(entryFactors, flag: "--entry-factors")
      }
      return evidence
    }
  }

  /// `push-up=0.5,automotive=0.9` (or `none`) as a table, each factor in (0, 1].
  static func parse(_ text: String, flag: String) throws -> [String: Float] {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed == "none" { return [:] }
    var table: [String: Float] = [:]
    for pair in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
      let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
      guard parts.count == 2, !name.isEmpty,
        let value = Float(parts[1].trimmingCharacters(in: .whitespaces))
      else {
        throw ValidationError(
          "'\(flag)' takes class=factor pairs separated by commas, or none; got '\(pair)' in "
            + "'\(text)'. Example: \(flag) push-up=0.5.")
      }
      guard value > 0 && value <= 1 else {
        throw ValidationError("'\(flag)': the factor of \(name) must be in (0, 1], got \(value).")
      }
      guard table.updateValue(value, forKey: name) == nil else {
        throw ValidationError("'\(flag)' names \(name) twice in '\(text)'.")
      }
    }
    return table
  }

  /// `table` as the flags take it: `push-up=0.5`, or `none`.
  static func text(_ table: [String: Float]) -> String {
    table.isEmpty ? "none" : ClassEvidence.listing(table)
  }

  /// Where the classes a factor may name come from, as an error says it.
  enum ClassSource {
    case model, manifest

    var name: String { self == .model ? "the model" : "the manifest" }
    var hint: String {
      self == .model ? "`motus model-info MODEL`" : "the manifest's \"labels\""
    }
  }

  /// Refuses a class that `source` does not have among explicitly given factors: a misspelt
  /// name would otherwise change nothing, silently.
  func check(classes: [String], of source: ClassSource = .model) throws {
    for (flag, given) in [("--evidence-factors", evidenceFactors), ("--entry-factors", entryFactors)] {
      guard let given else { continue }
      try Self.check(
        names: try Self.parse(given, flag: flag).keys, flag: flag, classes: classes, of: source)
    }
  }

  /// Refuses the first of `names` (sorted) that is not one of `classes`, naming `flag`.
  static func check(
    names: some Collection<String>, flag: String, classes: [String], of source: ClassSource
  ) throws {
    for name in names.sorted() where !classes.contains(name) {
      throw ToolError(
        "\(flag) names '\(name)', which \(source.name) does not have",
        hint: "its classes are \(classes.joined(separator: ", ")) (\(source.hint)).")
    }
  }
}
