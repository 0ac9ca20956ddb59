// The stream and batch evaluation agree: `motus evaluate --smoothing` scores what a smoothing
// stream answers, and a stream at another rate is resampled as loading resamples it. Also
// checks that the streaming tests' committed model is still what its recipe trains. Every
// recording here is SYNTHETIC (ActivitySimulator).

import Foundation
import MotusData
import MotusEvaluation
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusSimulation
import MotusStreaming
import MotusTestSupport
import MotusTraining
import XCTest

final class StreamEvaluationAgreementTests: XCTestCase {
  /// The recipe of `StreamAgreement.model()`: logistic, 50 Hz, 128-sample windows, hop 64.
  static func trainModel(loaded: LoadResult) throws -> TrainedModel {
    var logistic = LogisticRegression.Hyperparameters()
    logistic.maxEpochs = 60
    // The model these tests were written against: balanced classes.
    logistic.classWeighting = .balanced
    var options = TrainingOptions()
    options.model = .logistic(logistic)
    options.seed = 1
    // No perturbed copies.
    options.augmentation = nil
    return try Trainer.train(
      dataset: loaded.dataset, spec: StreamAgreement.spec(recipes: loaded.recipes),
      options: options
    ).model
  }

  /// Set MOTUS_WRITE_FIXTURES=1 to rewrite the file after an intended change of the model
  /// format or of training.
  func testStreamingTestsModel_IsWhatItsRecipeTrains() throws {
    let trained = try Self.trainModel(
      loaded: StreamAgreement.load(StreamAgreement.trainingRecordings(rateHz: 50)))
    let bytes = try ModelFile.encode(trained)
    if ProcessInfo.processInfo.environment["MOTUS_WRITE_FIXTURES"] == "1" {
      try bytes.write(to: StreamAgreement.modelURL)
    }
    let committed = try Data(contentsOf: StreamAgreement.modelURL)
    XCTAssertEqual(
      bytes, committed,
      "Tests/Fixtures/streaming-synthetic.motus is not what its recipe trains; rerun with "
        + "MOTUS_WRITE_FIXTURES=1 if the change is intended")
  }

  /// `motus evaluate --smoothing` scores exactly what a smoothing stream answers, with the
  /// stream's default class evidence, none, and factors on two classes.
  func testSmoothedStreaming_MatchesSmoothedEvaluation() throws {
    let model = try StreamAgreement.model()
    XCTAssertNotNil(ClassEvidence.standard.entryFactors(classes: model.classes))
    var simulator = ActivitySimulator(seed: 99)
    let recording = simulator.recording(
      segments: [(.walking, 12), (.stationary, 8), (.pushUp, 10)], subject: 7)
    let smoothing = Smoothing.hiddenMarkov(switchProbability: 0.05)
    let loaded = try StreamAgreement.load([recording])
    let batch = try StreamAgreement.batchProbabilities(model: model, recording: recording)
      .probabilities
    let scaled = ClassEvidence(
      factors: ["push-up": 0.5, "walking": 0.8], entryFactors: ["stationary": 0.1])
    var evaluations: [Matrix] = []
    for evidence in [ClassEvidence.standard, .neutral, scaled] {
      let evaluated = try Evaluation.run(
        model: model, dataset: loaded.dataset, smoothing: smoothing, evidence: evidence)
      var changed: Float = 0
      for i in 0..<batch.rowCount {
        changed = max(changed, maxAbsoluteDifference(batch.row(i), evaluated.probabilities.row(i)))
      }
      XCTAssertGreaterThan(changed, 1e-3, "the smoothing must change some window")

      var configuration = StreamConfiguration()
      configuration.smoothing = smoothing
      configuration.evidence = evidence
      let engine = try StreamingClassifier(
        model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
      StreamAgreement.assertMatch(
        StreamAgreement.streamedProbabilities(recording, engine: engine), evaluated.probabilities,
        "smoothed streaming vs smoothed evaluation, \(evidence)")
      evaluations.append(evaluated.probabilities)
    }
    // Each setting changes what is smoothed, so the agreement above is not one case three times.
    XCTAssertNotEqual(evaluations[0], evaluations[1])
    XCTAssertNotEqual(evaluations[1], evaluations[2])
  }

  /// A 100 Hz stream into a 50 Hz model is resampled exactly as batch loading resamples it.
  func testStreaming_ResampledInputMatchesBatchResampling() throws {
    let loaded = try StreamAgreement.load(
      StreamAgreement.trainingRecordings(rateHz: 100), sampleRateHz: 50)
    let model = try Self.trainModel(loaded: loaded)
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 100)
    let recording = simulator.recording(segments: [(.running, 10), (.cycling, 10)], subject: 8)
    let (batch, inputRate) = try StreamAgreement.batchProbabilities(
      model: model, recording: recording, sampleRateHz: 50)

    var configuration = StreamConfiguration()
    configuration.inputRateHz = inputRate
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    XCTAssertTrue(engine.isResampling)
    StreamAgreement.assertMatch(
      StreamAgreement.streamedProbabilities(recording, engine: engine), batch,
      "resampled streaming vs batch")
  }
}
