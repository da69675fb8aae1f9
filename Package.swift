// swift-tools-version:6.2
import PackageDescription

/// Settings every target shares: Swift 6 language mode (strict concurrency) and no warnings left behind.
let strictSettings: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

/// Rooms by who links them (docs/architecture in the README): an app links `StoreKitCore` and nothing else; a
/// replay host and test targets link `StoreKitReplay`; the executables are thin shells over their libraries.
var package = Package(
    name: "StoreKitReplay",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "StoreKitCore", targets: ["StoreKitCore"]),
        // The JSON engine on its own (StoreKitReplay re-exports it): for code that names JSONPatch, JSONPath,
        // StateDiff or the canonical encoder without linking the replay library.
        .library(name: "StoreKitJSON", targets: ["StoreKitJSON"]),
        .library(name: "StoreKitReplay", targets: ["StoreKitReplay"]),
        .library(name: "StoreKitTesting", targets: ["StoreKitTesting"]),
        .executable(name: "replayd", targets: ["replayd"]),
        .executable(name: "replay-cli", targets: ["replay-cli"]),
    ],
    targets: [
        // Under what an app links, as small libraries under a public one: the C library's calls wrapped once (and a
        // lock), and the JSON engine (parsing, canonical encoding, patch and pointer, structural diff).
        .target(name: "StoreKitSystem"),
        .target(name: "StoreKitJSON", dependencies: ["StoreKitSystem"]),
        // What an app links: the store, the recorder and the session model.
        .target(name: "StoreKitCore", dependencies: ["StoreKitSystem", "StoreKitJSON"]),
        // What a replay host, test targets and the tools link: reading, replaying and diffing sessions.
        .target(name: "StoreKitReplay", dependencies: ["StoreKitCore", "StoreKitJSON", "StoreKitSystem"]),
        .target(name: "StoreKitTesting", dependencies: ["StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem"]),
        // The typed command-line options every executable of the package parses.
        .target(name: "CommandLineOptions"),
        // The daemon and the CLI, as libraries their tests and fuzz targets link; the executables only call them.
        .target(
            name: "ReplayDaemon",
            dependencies: ["StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem", "CommandLineOptions"]),
        .target(
            name: "ReplayCommands",
            dependencies: ["StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem", "CommandLineOptions"]),
        .executableTarget(name: "replayd", dependencies: ["ReplayDaemon"]),
        .executableTarget(name: "replay-cli", dependencies: ["ReplayCommands", "StoreKitSystem"]),

        // What the samples share besides the library: a seeded random number generator for scripted runs.
        .target(name: "SampleSupport", path: "samples/Support"),
        .target(name: "SampleFeatures", dependencies: ["StoreKitCore", "SampleSupport"], path: "samples/Features"),
        // The realistic sample: a band's rehearsal planner, several features deep, with a navigation stack and a timer.
        .target(
            name: "RehearsalFeatures", dependencies: ["StoreKitCore", "SampleSupport"], path: "samples/RehearsalFeatures"),
        .target(
            name: "SampleReplayStores",
            dependencies: ["SampleFeatures", "RehearsalFeatures", "StoreKitCore", "StoreKitReplay", "StoreKitJSON"],
            path: "samples/ReplayStores"),
        .executableTarget(
            name: "sample-app",
            dependencies: ["SampleFeatures", "RehearsalFeatures", "SampleSupport", "StoreKitCore", "CommandLineOptions"],
            path: "samples/SampleApp"),
        .executableTarget(
            name: "sample-replay-host", dependencies: ["SampleReplayStores", "StoreKitReplay"], path: "samples/ReplayHost"),

        .executableTarget(
            name: "storekit-benchmarks",
            dependencies: [
                "StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem", "ReplayDaemon", "SampleFeatures",
                "SampleSupport",
            ],
            path: "Benchmarks/StoreKitBenchmarks"),

        // Fakes and fixtures the test targets share (a tiny feature, a controllable transport, temporary folders).
        .target(
            name: "StoreKitTestFixtures", dependencies: ["StoreKitCore", "StoreKitReplay", "StoreKitSystem"],
            path: "Tests/Fixtures"),
        .testTarget(name: "StoreKitSystemUnitTests", dependencies: ["StoreKitSystem", "StoreKitTestFixtures"]),
        .testTarget(
            name: "StoreKitJSONUnitTests",
            dependencies: ["StoreKitJSON", "StoreKitSystem", "StoreKitCore", "StoreKitTestFixtures", "SampleSupport"]),
        // The recorder's tests read back what it wrote with the replay library's reader.
        .testTarget(
            name: "StoreKitCoreUnitTests",
            dependencies: ["StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem", "StoreKitTestFixtures"]),
        .testTarget(
            name: "StoreKitReplayUnitTests",
            dependencies: ["StoreKitReplay", "StoreKitCore", "StoreKitJSON", "StoreKitSystem", "StoreKitTestFixtures"]),
        .testTarget(
            name: "StoreKitTestingUnitTests",
            dependencies: [
                "StoreKitTesting", "StoreKitReplay", "StoreKitCore", "SampleFeatures", "SampleReplayStores",
                "StoreKitTestFixtures",
            ]),
        .testTarget(name: "CommandLineOptionsUnitTests", dependencies: ["CommandLineOptions"]),
        .testTarget(
            name: "ReplayCommandsUnitTests",
            dependencies: [
                "ReplayCommands", "StoreKitReplay", "StoreKitCore", "StoreKitJSON", "StoreKitSystem", "CommandLineOptions",
                "StoreKitTestFixtures",
            ]),
        .testTarget(
            name: "ReplayDaemonUnitTests",
            dependencies: [
                "ReplayDaemon", "StoreKitCore", "StoreKitJSON", "StoreKitSystem", "StoreKitTestFixtures", "SampleSupport",
            ]),
        .testTarget(name: "ReplayCLIEndToEndTests", dependencies: ["replay-cli", "sample-replay-host", "sample-app"], exclude: ["Help"]),
        .testTarget(
            name: "ReplaydEndToEndTests",
            dependencies: [
                "replayd", "replay-cli", "sample-app", "StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem",
                "SampleFeatures", "SampleReplayStores", "SampleSupport", "StoreKitTestFixtures",
            ]),
        .testTarget(
            name: "SampleIntegrationTests",
            dependencies: [
                "SampleFeatures", "RehearsalFeatures", "SampleReplayStores", "StoreKitCore", "StoreKitReplay",
                "StoreKitTesting", "StoreKitTestFixtures",
            ]),
        // The copy-in adapters of Adapters/ (never a product): each compiled against a stand-in of its library's hook
        // point, written from the library's public documentation, and tested with a session that replays.
        .target(name: "ReSwiftStandIn", path: "Adapters/StandIns/ReSwift"),
        .target(name: "FluxorStandIn", path: "Adapters/StandIns/Fluxor"),
        .target(name: "ComposableArchitectureStandIn", path: "Adapters/StandIns/ComposableArchitecture"),
        .target(
            name: "ReSwiftAdapter", dependencies: ["ReSwiftStandIn", "StoreKitCore", "StoreKitReplay"],
            path: "Adapters/ReSwift", swiftSettings: [.define("STOREKIT_ADAPTER_STAND_IN")]),
        .target(
            name: "FluxorAdapter", dependencies: ["FluxorStandIn", "StoreKitCore", "StoreKitReplay"],
            path: "Adapters/Fluxor", swiftSettings: [.define("STOREKIT_ADAPTER_STAND_IN")]),
        .target(
            name: "ComposableArchitectureAdapter",
            dependencies: ["ComposableArchitectureStandIn", "StoreKitCore", "StoreKitReplay"], path: "Adapters/TCA",
            swiftSettings: [.define("STOREKIT_ADAPTER_STAND_IN")]),
        .testTarget(
            name: "AdapterTests",
            dependencies: [
                "ReSwiftAdapter", "ReSwiftStandIn", "FluxorAdapter", "FluxorStandIn", "ComposableArchitectureAdapter",
                "ComposableArchitectureStandIn", "StoreKitCore", "StoreKitReplay", "StoreKitTestFixtures",
            ]),
        // Every Swift block of the README and docs/, compiled as a marked region of a file under Snippets/.
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "SampleFeatures", "StoreKitCore", "StoreKitReplay", "StoreKitTesting", "ReSwiftAdapter", "ReSwiftStandIn",
                "FluxorAdapter", "FluxorStandIn", "ComposableArchitectureAdapter", "ComposableArchitectureStandIn",
            ],
            exclude: ["Snippets/Goldens"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
