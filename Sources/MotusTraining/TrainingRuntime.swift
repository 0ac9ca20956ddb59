// What a program that links the training side does once, at start.

import MotusBLAS

/// Process-wide set-up of the training side.
public enum TrainingRuntime {
  /// Sets OpenBLAS up now (one thread, its worker threads stopped) instead of at the first
  /// kernel. OpenBLAS starts a worker per core when it loads, each spin-waiting for work for
  /// about a tenth of a second: on a two-core machine that takes a core from whatever the
  /// program does first, such as parsing a file. Model outputs are the same either way.
  public static func prepare() { BLAS.prepare() }

  /// The environment OpenBLAS must load with for model files to be the same on every machine
  /// (`BLASKernels`); nil when nothing needs setting.
  public static func kernelPinning() -> (name: String, value: String)? {
    BLASKernels.pinningEnvironment()
  }
}
