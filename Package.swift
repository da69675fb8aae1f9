// swift-tools-version:6.2
import PackageDescription

/// Settings every target shares: Swift 6 language mode (strict concurrency) and no warnings left behind.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

var package = Package(
    name: "StoreKitReplay",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "StoreKitCore", targets: ["StoreKitCore"]),
        .library(name: "StoreKitTesting", targets: ["StoreKitTesting"]),
        .executable(name: "replayd", targets: ["replayd"]),
        .executable(name: "replay-cli", targets: ["replay-cli"]),
    ],
    targets: [
        .target(name: "StoreKitCore"),
        .target(name: "StoreKitTesting", dependencies: ["StoreKitCore"]),
        .executableTarget(name: "replayd", dependencies: ["StoreKitCore"]),
        .executableTarget(name: "replay-cli", dependencies: ["StoreKitCore"]),

        .target(name: "SampleFeatures", dependencies: ["StoreKitCore"], path: "samples/Features"),
        .executableTarget(
            name: "sample-app", dependencies: ["SampleFeatures", "StoreKitCore"], path: "samples/SampleApp"),
        .executableTarget(
            name: "sample-replay-host", dependencies: ["SampleFeatures", "StoreKitCore"], path: "samples/ReplayHost"),

        .executableTarget(
            name: "storekit-benchmarks", dependencies: ["StoreKitCore"], path: "Benchmarks/StoreKitBenchmarks"),

        .testTarget(name: "StoreKitCoreTests", dependencies: ["StoreKitCore"]),
        .testTarget(
            name: "StoreKitTestingTests", dependencies: ["StoreKitTesting", "StoreKitCore", "SampleFeatures"]),
        .testTarget(name: "ReplayCLITests", dependencies: ["replay-cli", "sample-replay-host"]),
        .testTarget(
            name: "ReplaydTests", dependencies: ["replayd", "sample-app", "StoreKitCore", "SampleFeatures"]),
        .testTarget(name: "SampleGoldenTests", dependencies: ["SampleFeatures", "StoreKitCore", "StoreKitTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
