import Foundation
import MotusAdaptation
import MotusData
import MotusModels

/// A few minutes the user labels ("these were push-ups") adapt the model to their own
/// placement, on the device (`ModelAdapter`, the code `motus adapt` runs).
///
///     var minutes = try Personalisation(model: model, sampleRateHz: 50)
///     minutes.receive(motion, label: "push-up")   // per sample while the user labels
///     let mine = try minutes.adaptedModel()        // then feed `ActivityMonitor(model: mine, ...)`
///
/// Each labelled stretch becomes one recording in the model's channels at the model's rate
/// (resampled as the stream resamples), windowed as training windows.
public struct Personalisation {
  public let model: TrainedModel
  private let adapter: InputAdapter
  private let plan: ChannelPlan
  private let inputRateHz: Double
  private var resampler: StreamingResampler
  private var stretchLabel: String?
  private var stretch: (times: [Double], columns: [[Float]]) = ([], [])
  private var recordings: [Recording] = []

  public init(model: TrainedModel, sampleRateHz: Double) throws {
    self.model = model
    let recipes = model.featureSpec.recipes
    adapter = try InputAdapter(
      modelInputs: ChannelSelector.rawInputs(of: recipes), header: DeviceMotion.channelNames,
      file: "Core Motion", negateAcceleration: false,
      modelNegatesAcceleration: InputAdapter.modelNegatesAcceleration(recipes))
    plan = try ChannelPlan(recipes: recipes, rawChannels: adapter.inputs)
    inputRateHz = sampleRateHz
    resampler = StreamingResampler(
      inputRateHz: sampleRateHz, outputRateHz: model.featureSpec.sampleRateHz,
      channelCount: recipes.count)
  }

  /// One sample of a stretch the user labelled `label` (a class of the model); a new label
  /// starts a new stretch.
  public mutating func receive(_ motion: DeviceMotion, label: String) {
    if label != stretchLabel { closeStretch() }
    stretchLabel = label
    var fields = [Double](repeating: 0, count: DeviceMotion.channelNames.count)
    fields.withUnsafeMutableBufferPointer { motion.write(into: $0) }
    var raw = [Float](repeating: 0, count: adapter.inputs.count)
    raw.withUnsafeMutableBufferPointer { adapter.apply({ fields[$0] }, into: $0) }
    var channels = [Float](repeating: 0, count: plan.recipes.count)
    raw.withUnsafeBufferPointer { r in
      channels.withUnsafeMutableBufferPointer { plan.apply(raw: r, into: $0) }
    }
    var resampling = resampler  // a copy, so the closure may append to the stretch
    resampling.push(timestamp: motion.timestamp, values: channels) { append($0, $1) }
    resampler = resampling
  }

  /// The model adapted to every stretch received.
  ///
  /// - Throws: `AdaptationError` (a label the model lacks, too few windows of a class).
  public mutating func adaptedModel() throws -> TrainedModel {
    closeStretch()
    let labels = Array(Set(recordings.map(\.session))).sorted()
    let dataset = Dataset(
      channels: plan.outputChannels, labels: labels,
      recordings: recordings.map { recording in
        var labelled = recording
        let index = Int32(labels.firstIndex(of: recording.session)!)
        labelled.labelIndices = [Int32](repeating: index, count: recording.sampleCount)
        return labelled
      })
    return try ModelAdapter.adapt(model, to: AdaptationWindows(dataset: dataset, model: model))
  }

  private mutating func append(_ time: Double, _ values: UnsafeBufferPointer<Float>) {
    stretch.times.append(time)
    if stretch.columns.isEmpty { stretch.columns = Array(repeating: [], count: values.count) }
    for c in values.indices { stretch.columns[c].append(values[c]) }
  }

  private mutating func closeStretch() {
    var resampling = resampler
    resampling.finish { append($0, $1) }
    resampler = resampling
    if let label = stretchLabel, !stretch.times.isEmpty {
      // The stretch's label is kept as its session name until the dataset is made.
      recordings.append(
        Recording(
          session: label, subject: "me", source: "labelled minutes", timestamps: stretch.times,
          columns: stretch.columns, labelIndices: [], sampleRateHz: model.featureSpec.sampleRateHz))
    }
    stretch = ([], [])
  }
}
