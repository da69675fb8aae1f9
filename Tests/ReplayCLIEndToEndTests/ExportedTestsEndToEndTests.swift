import Foundation
import Testing

/// Tests `export-test` writes compile against the samples' own types and pass, and a golden that no longer
/// replays fails naming its artifacts and attaching them to the test: in a temporary package holding the libraries,
/// the samples' features and one test target of generated tests (one build, then one `swift test` for the passing
/// tests and one for the failing).
@Suite struct ExportedTestsEndToEndTests {
    /// The package: what a test target of an app links (the libraries) and the samples as the app.
    private static let manifest = """
        // swift-tools-version:6.2
        import PackageDescription

        let package = Package(
            name: "ExportedTests",
            platforms: [.macOS(.v13)],
            targets: [
                .target(name: "StoreKitSystem"),
                .target(name: "StoreKitJSON", dependencies: ["StoreKitSystem"]),
                .target(name: "StoreKitCore", dependencies: ["StoreKitSystem", "StoreKitJSON"]),
                .target(name: "StoreKitReplay", dependencies: ["StoreKitCore", "StoreKitJSON", "StoreKitSystem"]),
                .target(
                    name: "StoreKitTesting", dependencies: ["StoreKitCore", "StoreKitReplay", "StoreKitJSON", "StoreKitSystem"]),
                .target(name: "SampleSupport", path: "samples/Support"),
                .target(name: "SampleFeatures", dependencies: ["StoreKitCore", "SampleSupport"], path: "samples/Features"),
                .target(
                    name: "RehearsalFeatures", dependencies: ["StoreKitCore", "SampleSupport"], path: "samples/RehearsalFeatures"),
                .target(
                    name: "SampleReplayStores",
                    dependencies: ["SampleFeatures", "RehearsalFeatures", "StoreKitCore", "StoreKitReplay", "StoreKitJSON"],
                    path: "samples/ReplayStores"),
                .testTarget(
                    name: "ExportedTests",
                    dependencies: ["SampleFeatures", "RehearsalFeatures", "SampleReplayStores", "StoreKitTesting"]),
            ],
            swiftLanguageModes: [.v6]
        )

        """

    /// The exports: what each test is, and its options.
    private static let exports: [[String]] = [
        [
            "todos-basic.jsonl", "--from", "3", "--to", "12", "--style", "swift-testing", "--stores", "SampleStores.all",
            "--import", "SampleReplayStores", "-o", "Tests/ExportedTests/TodosSteps3To12Tests.swift",
        ],
        [
            "todos-basic.jsonl", "--from", "3", "--to", "12", "--style", "teststore", "--feature", "Todos",
            "--import", "SampleFeatures", "-o", "Tests/ExportedTests/TodosTestStoreTests.swift",
        ],
        [
            "rehearsals-journey.jsonl", "--style", "xctest", "--stores", "SampleStores.all", "--import", "SampleReplayStores",
            "-o", "Tests/ExportedTests/RehearsalsJourneyTests.swift",
        ],
        [
            "rehearsals-journey.jsonl", "--from", "20", "--to", "60", "--style", "teststore", "--feature", "RehearsalApp",
            "--import", "RehearsalFeatures", "-o", "Tests/ExportedTests/RehearsalsTestStoreTests.swift",
        ],
        // The same todo steps through a reducer that no longer toggles: this one must fail.
        [
            "todos-basic.jsonl", "--from", "3", "--to", "12", "--stores", "SampleStores.withTodoToggleRegression",
            "--import", "SampleReplayStores", "-o", "Tests/ExportedTests/TodosRegressionTests.swift",
        ],
    ]

    /// Runs `arguments` through `/usr/bin/env` in `directory`, standard output and error together.
    private func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) async throws -> (
        status: Int32, output: String
    ) {
        try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    @Test(.timeLimit(.minutes(20)))
    func generatedTestsCompileAgainstTheSamplesAndPassAndAGoldenThatNoLongerReplaysFailsNamingAndAttachingItsArtifacts() async throws {
        // Given a package of the libraries and the samples, and the exported tests in its test target
        let package = try Scratch()
        defer { package.remove() }
        for folder in ["Sources/StoreKitSystem", "Sources/StoreKitJSON", "Sources/StoreKitCore", "Sources/StoreKitReplay",
            "Sources/StoreKitTesting", "samples/Support", "samples/Features", "samples/RehearsalFeatures",
            "samples/ReplayStores"]
        {
            try FileManager.default.createDirectory(
                at: package.url.appendingPathComponent(folder).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: CLI.packageRoot.appendingPathComponent(folder), to: package.url.appendingPathComponent(folder))
        }
        try package.write("Package.swift", Self.manifest)
        for export in Self.exports {
            let outcome = try await CLI.run(["export-test", CLI.session(export[0])] + export.dropFirst(), directory: package.url)
            #expect(outcome.status == 0, "\(export): \(outcome.stderr)")
        }
        // and three todo steps whose store id and first action's name, were they code, would fail the test running them
        let injected = "\n        Issue.record(\"injected\") // \u{2028}\u{85} */ \"\"\"#\" \\(Issue.record(\"interpolated\"))"
        let hostile = try await CLI.run(
            [
                "export-test", try package.writeTodos("hostile.jsonl", storeID: "todos" + injected, firstAction: "addTodo" + injected),
                "--style", "teststore", "--feature", "Todos", "--import",
                "SampleFeatures", "-o", "Tests/ExportedTests/HostileTodosTests.swift",
            ], directory: package.url)
        #expect(hostile.status == 0, "\(hostile.stderr)")

        // When it is built with its tests, and the exported tests run
        let build = try await run(["swift", "build", "--build-tests"], in: package.url)
        try #require(build.status == 0, "\(build.output)")
        let passing = try await run(
            ["swift", "test", "--skip-build", "--skip", "TodosRegressionTests"], in: package.url)

        // Then each passes: both golden replays and both TestStore walks, on the todos and on the rehearsal planner
        #expect(passing.status == 0, "\(passing.output)")
        #expect(passing.output.contains("Test Case 'RehearsalsJourneyTests.testRecordedStepsReplay' passed"), "\(passing.output)")
        // (the hostile session's text among them, as literals: none of it ran, or the suite would have failed)
        for suite in ["TodosSteps3To12Tests", "TodosTestStoreTests", "RehearsalsTestStoreTests", "HostileTodosTests"] {
            #expect(passing.output.contains("Suite \(suite) passed"), "\(suite): \(passing.output)")
        }

        // When the golden replay through the regression runs, with REPLAY_ARTIFACTS set and Swift Testing saving
        // attachments
        let artifacts = package.file("artifacts")
        let attachments = package.file("attachments")
        try FileManager.default.createDirectory(atPath: attachments, withIntermediateDirectories: false)
        let failing = try await run(
            ["swift", "test", "--skip-build", "--filter", "TodosRegressionTests", "--attachments-path", attachments],
            in: package.url, environment: ["REPLAY_ARTIFACTS": artifacts])

        // Then it fails at the first toggle (step 5, the trimmed file's step 3) and names the artifacts it kept
        #expect(failing.status != 0)
        #expect(failing.output.contains("diverged at step 3 of 10"), "\(failing.output)")
        #expect(
            failing.output.contains("artifacts: \(artifacts)/TodosRegressionTests.replayed.jsonl, \(artifacts)/TodosRegressionTests.html"),
            "\(failing.output)")
        #expect(FileManager.default.fileExists(atPath: "\(artifacts)/TodosRegressionTests.replayed.jsonl"))
        // and attaches the same two files to the failing test
        let attached = try FileManager.default.contentsOfDirectory(atPath: attachments).sorted()
        #expect(attached == ["TodosRegressionTests.html", "TodosRegressionTests.replayed.jsonl"], "\(failing.output)")
        for name in attached {
            #expect(
                FileManager.default.contents(atPath: "\(attachments)/\(name)")
                    == FileManager.default.contents(atPath: "\(artifacts)/\(name)"), "\(name)")
        }
    }
}
