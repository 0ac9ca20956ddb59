// swift-tools-version:6.0
// An app-sized use of Motus: only the pure-Swift `MotusInference` product, no OpenBLAS.
import PackageDescription

let package = Package(
  name: "ActivityMonitor",
  dependencies: [
    // `name:` pins the package's identity whatever the checkout's folder is called.
    .package(name: "Motus", path: "../..")
  ],
  targets: [
    // What an app would hold: Core Motion-shaped samples in, activity changes and push-ups out.
    .target(
      name: "ActivityMonitorKit",
      dependencies: [.product(name: "MotusInference", package: "Motus")]),
    // On Apple platforms it would be fed by CMMotionManager; here a CSV replays the samples.
    .executableTarget(
      name: "activity-monitor",
      dependencies: ["ActivityMonitorKit", .product(name: "MotusInference", package: "Motus")]),
  ]
)
