// Training-set augmentation: perturbed copies of every recording (see `DevicePerturbation`),
// so the model sees each activity as several devices and placements would record it.

import MotusData
import MotusFeatures
import MotusIngest
import MotusModels

/// How many perturbed copies of each training recording to add, and how they differ.
public struct Augmentation: Codable, Sendable, Equatable {
  /// Perturbed copies per recording, added beside the original. 0 = no augmentation.
  public var copies: Int
  public var perturbation: DevicePerturbation

  public init(copies: Int, perturbation: DevicePerturbation) {
    self.copies = copies
    self.perturbation = perturbation
  }
}

extension Augmentation {
  /// The perturbation `--augment` uses unless told otherwise: any orientation, gain ±10 %,
  /// noise up to 0.01 g, motion scaled by up to ±50 % (another placement or build) and a slow
  /// tilt wobble of up to 6° RMS (a body-worn phone). Each part was kept because it raised
  /// macro-F1 on held-out sources and placements in `motus bench transfer`.
  public static let defaultPerturbation = DevicePerturbation(
    maxRotationDegrees: 180, gainSpread: 0.1, noiseStandardDeviation: 0.01, maxSwayDegrees: 6,
    intensitySpread: 0.5)
  /// What `motus train` does by default: two perturbed copies of every recording.
  public static let recommended = Augmentation(copies: 2, perturbation: defaultPerturbation)
  /// More copies multiply training time without teaching more.
  public static let maxCopies = 16

  /// `dataset` followed by `copies` perturbed copies of it. Copies keep their subject and
  /// session names, so a validation split by subject or session holds a recording out together
  /// with its copies and never validates on a twin of a training window.
  ///
  /// - Complexity: O(copies · samples).
  public func apply(to dataset: Dataset, seed: UInt64) -> Dataset {
    var result = dataset
    for copy in copyNumbers {
      result.recordings += self.copy(copy, of: dataset, seed: seed).recordings
    }
    return result
  }

  /// The copies this augmentation adds, numbered from 1; none when it perturbs nothing.
  var copyNumbers: Range<Int> { copies > 0 && !perturbation.isIdentity ? 1..<(copies + 1) : 0..<0 }

  /// Perturbed copy `number` (from 1) of `dataset`, whose first recording is recording
  /// `firstIndex` of the whole training set. Its seed is distinct from the shuffling and
  /// initialisation streams of the same `seed`.
  func copy(_ number: Int, of dataset: Dataset, seed: UInt64, firstIndex: Int = 0) -> Dataset {
    let copySeed = (seed ^ 0xA5A5_5A5A_C3C3_3C3C) &+ UInt64(number) &* 0xD1B5_4A32_D192_ED03
    return perturbation.apply(to: dataset, seed: copySeed, firstIndex: firstIndex)
  }

  /// The copies for `WindowTable.make(dataset:extractor:minimumPurity:copies:)` and
  /// `WindowedLoad`, which window them a part of the data at a time. Each copy is held beside
  /// its part: one that would not fit in memory is refused rather than swapped or trapped.
  public func windowCopies(seed: UInt64) -> WindowTable.Copies {
    WindowTable.Copies(numbers: Array(copyNumbers)) { number, part, firstIndex in
      let bytesPerSample = Double(4 * part.channels.count + 12)
      try Limits.checkMemory(
        Double(part.sampleCount) * bytesPerSample * 2,
        for: "a perturbed copy of \(part.sampleCount) samples",
        hint: "use --augment 0, or less data at once.")
      return copy(number, of: part, seed: seed, firstIndex: firstIndex)
    }
  }
}
