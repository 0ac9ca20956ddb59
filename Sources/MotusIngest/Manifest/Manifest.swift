// A dataset manifest: JSON that composes recordings from several labelled-CSV sources into
// one training set with one channel list, one label vocabulary and one sampling rate (Hz).

import Foundation
import MotusData

/// What `motus --manifest FILE` reads. See `datasets/README.md` for the format.
///
///     { "name": "six-class", "dataRoot": "../../shared/datasets", "sampleRateHz": 15,
///       "channels": ["acceleration.x", ..., "|acceleration|"],
///       "labels": ["stationary", ...],
///       "sources": [ { "name": "qrowd", "files": ["qrowd_tr/qrowd_tr.csv"], ... } ] }
public struct Manifest: Codable, Sendable, Equatable {
  /// One public dataset (or part of one) and how it maps onto the manifest's vocabulary.
  public struct Source: Codable, Sendable, Equatable {
    /// Short name; prefixes subjects (`qrowd:1`) and sessions so they stay distinct.
    public var name: String
    /// CSV files or folders, relative to the data root.
    public var files: [String]
    /// Channel patterns as `--channels` takes them; the outputs must equal
    /// `Manifest.channels`, in that order.
    public var channels: [String]
    /// Multiply raw `acceleration.*` by -1 (Android sign to Core Motion sign). Default false.
    public var negateAcceleration: Bool?
    /// Source label -> manifest label. Source labels not named here are dropped.
    public var labels: [String: String]
    /// Subjects to keep / leave out (`1-16`, `Eric`), as `--subjects` takes them.
    public var subjects: String?
    public var excludeSubjects: String?
    /// Joins short clips into continuous recordings (see `ClipJoin`).
    public var joinClips: ClipJoin?
    /// Training weight of the source's windows (`minimumWeight` to `maximumWeight`, default
    /// 1): it multiplies each window's term in the training loss, together with the class
    /// weights, so weight 2 counts every window twice. Carried in
    /// `WholeLoad.sourceWeights` to `Trainer.train`.
    public var weight: Double?
    /// When set, a session name's text after its last occurrence of this separator names the
    /// sensor's placement (`a01_p1_LL` -> `LL` with `"_"`): sources that record one activity
    /// from several body positions at once, so that a placement can be held out.
    public var placementSeparator: String?
    /// The label of every phone-app recording among `files` (the apps write none), before
    /// `labels` maps it; long-layout CSV files keep their own label column.
    public var label: String?
    /// The terms the source's data comes under, as its publisher states them (shown in model
    /// cards; `nil` when not stated).
    public var licence: String?

    public init(
      name: String, files: [String], channels: [String], negateAcceleration: Bool? = nil,
      labels: [String: String], subjects: String? = nil, excludeSubjects: String? = nil,
      joinClips: ClipJoin? = nil, weight: Double? = nil, placementSeparator: String? = nil,
      label: String? = nil, licence: String? = nil
    ) {
      self.name = name
      self.files = files
      self.channels = channels
      self.negateAcceleration = negateAcceleration
      self.labels = labels
      self.subjects = subjects
      self.excludeSubjects = excludeSubjects
      self.joinClips = joinClips
      self.weight = weight
      self.placementSeparator = placementSeparator
      self.label = label
      self.licence = licence
    }
  }

  /// Clips of one subject and one (mapped) label are joined, in natural session-name order
  /// (time order for timestamped names), into one recording at the source's own rate, then
  /// resampled. The joined recording's `repetitions` is its clip count.
  public struct ClipJoin: Codable, Sendable, Equatable {
    /// When set, the session name up to its last occurrence of this separator names a run
    /// (`20251201_030547_s03` -> `20251201_030547` with `"_"`), and each run is joined on its
    /// own. Without it, all clips of one subject and label become one recording.
    public var runSeparator: String?
    /// Whether each clip holds about one repetition (push-up clips). Default true.
    public var oneRepetitionPerClip: Bool?

    public init(runSeparator: String? = nil, oneRepetitionPerClip: Bool? = nil) {
      self.runSeparator = runSeparator
      self.oneRepetitionPerClip = oneRepetitionPerClip
    }
  }

  public var name: String?
  public var description: String?
  /// Data root relative to the manifest's folder; `--data-root` overrides it. Default
  /// `../../shared/datasets` (the repository's `datasets/` folder beside `../shared`).
  public var dataRoot: String?
  /// The one rate every recording is resampled to (anti-alias low-pass + interpolation).
  public var sampleRateHz: Double
  public var channels: [String]
  /// The classes, in order; every source label maps into them or into `negativeLabels`.
  public var labels: [String]
  /// Labels for activities that are none of the classes (kept as labelled negatives: a model
  /// should answer `unknown` for them). Sources may map into them as into `labels`.
  public var negativeLabels: [String]?
  public var sources: [Source]

  public init(
    name: String? = nil, description: String? = nil, dataRoot: String? = nil,
    sampleRateHz: Double, channels: [String], labels: [String], negativeLabels: [String]? = nil,
    sources: [Source]
  ) {
    self.name = name
    self.description = description
    self.dataRoot = dataRoot
    self.sampleRateHz = sampleRateHz
    self.channels = channels
    self.labels = labels
    self.negativeLabels = negativeLabels
    self.sources = sources
  }

  /// Classes then negative labels: every label a source may map into.
  public var vocabulary: [String] { labels + (negativeLabels ?? []) }

  /// The data root used when neither the manifest nor the caller names one.
  public static let defaultDataRoot = "../../shared/datasets"
}

extension Manifest {
  /// The source of a subject named `source:subject`, as a loaded manifest names subjects
  /// (`motionsense:17`); nil for a subject without a source prefix.
  public static func source(ofSubject subject: String) -> String? {
    subject.firstIndex(of: ":").map { String(subject[..<$0]) }
  }
}
