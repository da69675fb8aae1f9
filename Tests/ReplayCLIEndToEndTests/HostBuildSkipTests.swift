import Foundation
import Testing

/// A plain `swift build` step is skipped when nothing it reads changed since it last succeeded, and runs again after
/// any change: a source file touched, a file of a local (path) dependency edited, the host's executable replaced, a
/// build that failed.
///
/// The `swift` here is a stand-in first on `PATH` that counts its runs (a real build is
/// ``CurrentHostEndToEndTests``'s); the host is a script that runs the samples' host.
@Suite struct HostBuildSkipTests {
    /// A package folder with a source file, a local dependency beside it, a host script, and a `swift` that counts.
    private struct Fixture {
        let scratch: Scratch
        var package: String { scratch.file("package") }
        var dependency: String { scratch.file("dependency") }
        var arguments: [String] {
            ["diff", CLI.session("counter-basic.jsonl"), "--json", "--host", "./host", "--build", "swift build --product host"]
        }
        var environment: [String: String] {
            ["PATH": scratch.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        }

        init() throws {
            scratch = try Scratch()
            for folder in ["bin", "package/Sources/Feature", "package/.build", "dependency/Sources/Helper"] {
                try FileManager.default.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true)
            }
            // A build that leaves a mark outside the package, and fails while a `fail` file exists.
            try scratch.write(
                "bin/swift",
                """
                #!/bin/sh
                echo "$*" >> \(scratch.file("builds.log"))
                if [ -f \(scratch.file("fail")) ]; then echo "error: told to fail" >&2; exit 1; fi
                """, executable: true)
            try scratch.write("package/Package.swift", "// swift-tools-version:6.0\n")
            try scratch.write("package/Sources/Feature/Feature.swift", "let feature = 1\n")
            try scratch.write("package/host", "#!/bin/sh\nexec \(CLI.sampleHost) \"$@\"\n", executable: true)
            try scratch.write("dependency/Package.swift", "// swift-tools-version:6.0\n")
            try scratch.write("dependency/Sources/Helper/Helper.swift", "let helper = 1\n")
            try scratch.write(
                "package/.build/workspace-state.json",
                """
                {"object": {"artifacts": [], "dependencies": [{"basedOn": null,
                  "packageRef": {"identity": "dependency", "kind": "fileSystem", "location": "\(dependency)", "name": "dependency"},
                  "state": {"name": "fileSystem", "path": "\(dependency)"}, "subpath": "dependency"}], "prebuilts": []},
                 "version": 7}
                """)
        }

        /// Runs diff in the package; returns its exit status and whether the build step was skipped.
        func diff() async throws -> (status: Int32, skipped: Bool?) {
            let outcome = try await CLI.run(arguments, environment: environment, directory: URL(fileURLWithPath: package))
            let document = try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            return (outcome.status, (document?["host"] as? [String: Any])?["buildSkipped"] as? Bool)
        }

        /// How many times the build step ran.
        func builds() throws -> Int {
            guard FileManager.default.fileExists(atPath: scratch.file("builds.log")) else { return 0 }
            return try String(contentsOfFile: scratch.file("builds.log"), encoding: .utf8).split(separator: "\n").count
        }

        /// Gives `path` a new modification time, its contents unchanged.
        func touch(_ path: String) throws {
            let later = Date().addingTimeInterval(2)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        }
    }

    @Test func withNothingChangedTheBuildIsSkippedAndTheReportSaysSo() async throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }

        // When diff runs twice with nothing changed between
        let first = try await fixture.diff()
        let second = try await fixture.diff()

        // Then the build ran once, and the second replay says it skipped it
        #expect(first.status == 0 && first.skipped == false)
        #expect(second.status == 0 && second.skipped == true)
        #expect(try fixture.builds() == 1)

        // And the text report says the host is up to date
        let text = try await CLI.run(
            Array(fixture.arguments.filter { $0 != "--json" }), environment: fixture.environment,
            directory: URL(fileURLWithPath: fixture.package))
        #expect(text.stdout.hasSuffix(", up to date: nothing its build reads changed since)\n"), "\(text.stdout)")
        #expect(try fixture.builds() == 1)
    }

    @Test func aTouchedSourceFileRunsTheBuildAgain() async throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        _ = try await fixture.diff()
        #expect(try await fixture.diff().skipped == true)

        // Given a source file touched, then the build runs again, and is skipped after that
        try fixture.touch(fixture.package + "/Sources/Feature/Feature.swift")
        #expect(try await fixture.diff().skipped == false)
        #expect(try await fixture.diff().skipped == true)
        #expect(try fixture.builds() == 2)

        // And so does a new file, and an edit that keeps the size
        try fixture.scratch.write("package/Sources/Feature/More.swift", "let more = 1\n")
        #expect(try await fixture.diff().skipped == false)
        try fixture.scratch.write("package/Sources/Feature/Feature.swift", "let feature = 2\n")
        #expect(try await fixture.diff().skipped == false)
        #expect(try fixture.builds() == 4)

        // But a change in a hidden folder (the build's own output) is not an input
        try fixture.scratch.write("package/.build/output.o", "object code")
        #expect(try await fixture.diff().skipped == true)
        #expect(try fixture.builds() == 4)
    }

    @Test func anEditInALocalDependencyRunsTheBuildAgain() async throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        _ = try await fixture.diff()
        #expect(try await fixture.diff().skipped == true)

        // Given a file of the path dependency (outside the package's folder) edited
        try fixture.scratch.write("dependency/Sources/Helper/Helper.swift", "let helper = 2\n")

        // Then the build runs again
        #expect(try await fixture.diff().skipped == false)
        #expect(try fixture.builds() == 2)
    }

    @Test func aChangedHostExecutableRunsTheBuildAgain() async throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        _ = try await fixture.diff()
        #expect(try await fixture.diff().skipped == true)

        // Given the host's executable written by something else (another build, a copy)
        try fixture.scratch.write("package/host", "#!/bin/sh\nexec  \(CLI.sampleHost) \"$@\"\n", executable: true)

        // Then the build runs again
        #expect(try await fixture.diff().skipped == false)
        #expect(try fixture.builds() == 2)
    }

    @Test func aFailedBuildIsNeverSkipped() async throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        _ = try await fixture.diff()
        #expect(try await fixture.diff().skipped == true)

        // Given a source touched and a build that fails
        try fixture.touch(fixture.package + "/Sources/Feature/Feature.swift")
        try fixture.scratch.write("fail", "")
        #expect(try await fixture.diff().status == 2)

        // Then with nothing changed since, it runs (and fails) again, and once it succeeds it is skipped after
        #expect(try await fixture.diff().status == 2)
        try FileManager.default.removeItem(atPath: fixture.scratch.file("fail"))
        #expect(try await fixture.diff().skipped == false)
        #expect(try await fixture.diff().skipped == true)
        #expect(try fixture.builds() == 4)
    }

    @Test func anotherEnvironmentOrABuildCommandThatIsNotPlainSwiftBuildRunsEveryTime() async throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        _ = try await fixture.diff()
        #expect(try await fixture.diff().skipped == true)

        // Given another value of an environment variable the build may read, then it runs again
        var environment = fixture.environment
        environment["SWIFT_EXTRA_FLAG"] = "1"
        let other = try await CLI.run(fixture.arguments, environment: environment, directory: URL(fileURLWithPath: fixture.package))
        #expect(other.status == 0)
        #expect(try fixture.builds() == 2)

        // Given a step a shell would expand, then it runs every time
        let shell = fixture.arguments.dropLast() + ["swift build --product host && true"]
        for _ in 0..<2 {
            let outcome = try await CLI.run(Array(shell), environment: fixture.environment, directory: URL(fileURLWithPath: fixture.package))
            #expect(outcome.status == 0)
        }
        #expect(try fixture.builds() == 4)
    }
}
