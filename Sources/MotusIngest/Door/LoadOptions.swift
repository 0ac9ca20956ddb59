// What `DataSource` reads from labelled CSV files and how it shapes the result.

import MotusData

/// Column names, channel selection, label and subject filters, and resampling.
/// Every property has a default that reads `../shared/datasets` files as they are.
public struct LoadOptions: Sendable, Equatable {
  /// Seconds, ascending within a session.
  public var timeColumn = "timestamp"
  /// `nil` means one session per file, named after the file; so does a file without the
  /// default `session` column. A non-default name the file lacks is an error (a typo).
  public var sessionColumn: String? = "session"
  /// `nil`, or the default `subject` column absent: subject `"unknown"`.
  public var subjectColumn: String? = "subject"
  /// Required when `requireLabels`; otherwise an absent column labels every row
  /// `LoadOptions.unlabelled`.
  public var labelColumn: String? = "label"
  public var requireLabels = true
  /// Comma-free names or globs (`*`, `?`), for example `["userAcceleration.*", "|gravity|"]`.
  /// Empty selects every numeric channel column. Derived names: `acceleration.x/y/z`
  /// (= `gravity` + `userAcceleration`, when raw acceleration is absent) and `|group|`
  /// magnitudes of `group.x/y/z`.
  public var channelPatterns: [String] = []
  /// Multiplies raw `acceleration.*` columns by -1 (Android sign to Core Motion sign).
  /// Derived acceleration is already in Core Motion sign and is never negated.
  public var negateAcceleration = false
  /// Renames labels (`sitting` -> `stationary`); every key must occur in the data.
  public var labelMap: [String: String] = [:]
  /// Labels to keep, after mapping; `nil` keeps all. Other rows are dropped (which leaves a
  /// time gap, so the session splits there).
  public var keepLabels: [String]? = nil
  public var subjects: SubjectFilter? = nil
  public var excludeSubjects: SubjectFilter? = nil
  /// Resample every recording to this rate (Hz); `nil` keeps the detected rate.
  public var sampleRateHz: Double? = nil
  /// A time step longer than `gapFactor` median sample periods, and longer than
  /// `minimumGapSeconds`, splits a session (`GapRule`).
  public var gapFactor: Double = 3
  /// Steps up to this many seconds never split a session; jitter they leave is resampled
  /// away (`GapRule.minimumGapSeconds`).
  public var minimumGapSeconds: Double = GapRule.defaultMinimumGapSeconds
  /// The gap rule these options describe.
  public var gapRule: GapRule { GapRule(gapFactor: gapFactor, minimumGapSeconds: minimumGapSeconds) }
  /// Labels for phone-app recordings (which carry none): `--label`, `--label-map`.
  public var appLabels = AppExportLabels()
  /// A model's channel recipes to compute, instead of `channelPatterns`: each raw input they
  /// read comes from the file by the rule `InputAdapter` applies to a stream (a column of that
  /// name, else `acceleration.<axis>` as `gravity.<axis> + userAcceleration.<axis>`; with
  /// `negateAcceleration`, raw acceleration is in Android sign), and the dataset's channels are
  /// the recipes' outputs.
  public var modelRecipes: [ChannelRecipe]? = nil
  /// A model's rate (Hz), for `DataSource.load`: the data is read at its own rate and, when
  /// any recording is more than 2 % off this, parsed again resampled to it (a model trained on
  /// native-rate data is thus not fed resampled windows when the data already has its rate).
  /// `sampleRateHz`, when set, is used instead and always resamples.
  public var modelSampleRateHz: Double? = nil
  /// Refuse channel values beyond `Limits.channelMagnitude` and times beyond
  /// `Limits.timeMagnitude` (file, line and column in the error). Without it values need only
  /// be finite 32-bit floats; `motus inspect` reads that way, as it computes no features.
  public var checkValueRange = true

  /// The label given to rows when the data has no label column and labels are optional.
  public static let unlabelled = "unlabelled"

  public init() {}
}
