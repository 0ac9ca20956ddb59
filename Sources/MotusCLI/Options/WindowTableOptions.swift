// `motus train --windows TABLE --spec SPEC`: training from the window table `motus features`
// wrote (or a cluster assembled), instead of from recordings. The table's windows are made:
// every flag that reads recordings or shapes windows is refused by name rather than ignored.

import ArgumentParser
import Foundation
import Motus

struct WindowTableOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "A window table to train on instead of recordings: the CSV `motus features DATA -o "
        + "FILE` writes.",
      discussion: "Rows are trained in the file's order (with a `recording` column, in the "
        + "order motus reads a folder's recordings; see docs/manual.md). Needs --spec.",
      valueName: "table"))
  var windows: String?

  @Option(
    help: ArgumentHelp(
      "The table's spec: the JSON `motus features ... --spec-output FILE` wrote with it.",
      valueName: "file"))
  var spec: String?

  func validate() throws {
    if spec != nil, windows == nil {
      throw ValidationError.appliesOnly("--spec", with: "--windows TABLE")
    }
    if windows != nil, spec == nil {
      throw ValidationError(
        "'--windows' needs '--spec FILE', the JSON written with the table (`motus features "
          + "DATA -o TABLE --spec-output FILE`): the rate and window its features were made at "
          + "are not in the table.")
    }
  }

  /// Refuses, by name, whatever would be ignored with a table: recordings, flags that read or
  /// window them (the spec set those when the table was made), and augmentation, which
  /// perturbs samples a table does not hold. A flag given at its default value changes
  /// nothing and passes.
  func refuseDataFlags(
    data: DataOptions, windowOptions: WindowOptions, featureChannels: FeatureChannelOptions,
    training: TrainingFlags
  ) throws {
    if !data.paths.isEmpty || data.manifest != nil {
      throw ValidationError(
        "Give either recordings (paths or --manifest) or --windows, not both: the table is "
          + "the data.")
    }
    let defaults = (data: try DataOptions.parse([]), windows: try WindowOptions.parse([]))
    let given: [(String, Bool)] = [
      ("--data-root", data.dataRoot != nil),
      ("--allow-outside-data-root", data.allowOutsideDataRoot),
      ("--time-column", data.timeColumn != defaults.data.timeColumn),
      ("--negate-acceleration", data.negateAcceleration),
      ("--session-column", data.sessionColumn != defaults.data.sessionColumn),
      ("--subject-column", data.subjectColumn != defaults.data.subjectColumn),
      ("--label-column", data.labelColumn != defaults.data.labelColumn),
      ("--channels", data.channels != nil), ("--map", data.map != nil),
      ("--labels", data.labels != nil), ("--subjects", data.subjects != nil),
      ("--exclude-subjects", data.excludeSubjects != nil),
      ("--sample-rate", data.sampleRate != nil),
      ("--gap-factor", data.gaps.gapFactor != defaults.data.gaps.gapFactor),
      ("--min-gap", data.gaps.minGap != defaults.data.gaps.minGap),
      ("--label", data.label != nil), ("--label-map", data.labelMap != nil),
      ("--window", windowOptions.window != defaults.windows.window),
      ("--hop", windowOptions.hop != nil),
      ("--min-purity", windowOptions.minimumPurity != defaults.windows.minimumPurity),
      ("--bands", windowOptions.bands != nil),
      ("--statistics", windowOptions.statistics != nil),
      ("--spectral", windowOptions.spectral != nil),
      ("--log-power-floor", windowOptions.logPowerFloor != nil),
      ("--context", windowOptions.context != nil),
      ("--no-context-bands", windowOptions.contextBands != defaults.windows.contextBands),
      ("--feature-channels", featureChannels.featureChannels != nil),
      ("--decompose", featureChannels.decompose != nil),
    ]
    if let flag = given.first(where: { $0.1 })?.0 {
      throw ValidationError.appliesOnly(
        flag, with: "recordings (paths or --manifest): a table's windows are already made, as "
          + "its --spec records")
    }
    if training.augment.map({ $0 > 0 }) == true || training.perturbation != nil {
      let flag = training.perturbation != nil ? "--perturbation" : "--augment"
      throw ValidationError(
        "'\(flag)' perturbs recordings' samples, and a table holds only their features: a "
          + "table trains without perturbed copies, as `motus train DATA --augment 0` does. "
          + "Train on the recordings for augmentation, or leave the flag out.")
    }
  }
}
