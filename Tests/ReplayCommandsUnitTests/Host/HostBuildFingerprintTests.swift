import Foundation
import Testing

@testable import ReplayCommands

/// Which build steps have a fingerprint, what it reads from `workspace-state.json`, and what it refuses.
@Suite struct HostBuildFingerprintTests {
    /// A fresh folder under /tmp with a `Package.swift`, removed by the test.
    private func package() throws -> String {
        let folder = NSTemporaryDirectory() + "fingerprint-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/Sources/Feature", withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.0\n".utf8).write(to: URL(fileURLWithPath: folder + "/Package.swift"))
        try Data("let x = 1\n".utf8).write(to: URL(fileURLWithPath: folder + "/Sources/Feature/Feature.swift"))
        return folder
    }

    private let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

    @Test(arguments: [
        ("swift build", true),
        ("swift build --product sample-replay-host", true),
        ("swift build -c release --product my-replay-host", true),
        ("swift build --configuration release --target Host -j 2 -q --build-tests", true),
        ("swift  build --product host", true),
        ("swift run host", false),
        ("swift build --product", false),
        ("swift build -c --product host", false),
        ("swift build --package-path ../app", false),
        ("swift build --scratch-path /tmp/b", false),
        ("swift build -Xswiftc -DDEBUG", false),
        ("swift build --product host && ./postprocess", false),
        ("swift build --product $HOST", false),
        ("SWIFT_FLAGS=1 swift build", false),
        ("make host", false),
        ("/opt/swift/usr/bin/swift build", false),
    ])
    func onlyAPlainSwiftBuildIsFingerprinted(command: String, plain: Bool) {
        #expect(HostBuildFingerprint.isPlainSwiftBuild(command) == plain)
    }

    @Test func theSameInputsGiveTheSameFingerprintAndAnEditAnother() throws {
        let folder = try package()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let take = { try HostBuildFingerprint.take(command: "swift build", directory: folder, environment: environment) }
        let first = try take()
        #expect(try take() == first)
        #expect(first.text.contains("file \(folder)/Sources/Feature/Feature.swift 10 "))

        // A hidden folder is no input; a visible file is
        try FileManager.default.createDirectory(atPath: folder + "/.build", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/.build/output"))
        #expect(try take() == first)
        try Data("let x = 2\n".utf8).write(to: URL(fileURLWithPath: folder + "/Sources/Feature/Feature.swift"))
        #expect(try take() != first)

        // Another command or environment is another fingerprint
        #expect(try HostBuildFingerprint.take(command: "swift build -c release", directory: folder, environment: environment) != take())
        #expect(
            try HostBuildFingerprint.take(command: "swift build", directory: folder, environment: environment.merging(["CC": "clang"]) { $1 })
                != take())
    }

    @Test func aFolderWithoutPackageSwiftOrALinkCycleHasNoFingerprint() throws {
        let folder = try package()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: HostBuildFingerprint.Unavailable(reason: "no Package.swift in \(folder)/Sources")) {
            try HostBuildFingerprint.take(command: "swift build", directory: folder + "/Sources", environment: environment)
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/Sources/Feature/loop", withDestinationPath: folder + "/Sources")
        #expect(throws: HostBuildFingerprint.Unavailable(reason: "\(folder)/Sources/Feature/loop is reached twice (a cycle of symbolic links?)")) {
            try HostBuildFingerprint.take(command: "swift build", directory: folder, environment: environment)
        }
    }

    @Test func theWorkspaceStateNamesLocalAndEditedDependenciesAndAnUnknownStateIsRefused() throws {
        let folder = try package()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/workspace-state.json"
        func state(_ dependencies: String, version: Int = 7) throws -> [String] {
            try Data(#"{"object": {"artifacts": [], "dependencies": [\#(dependencies)]}, "version": \#(version)}"#.utf8)
                .write(to: URL(fileURLWithPath: file))
            return try HostBuildFingerprint.localDependencies(file)
        }
        #expect(try HostBuildFingerprint.localDependencies(folder + "/missing.json") == [])
        #expect(
            try state(
                #"""
                {"state": {"name": "sourceControlCheckout", "checkoutState": {}}},
                {"state": {"name": "fileSystem", "path": "/src/zeta"}},
                {"state": {"name": "edited", "path": "/src/edited"}},
                {"state": {"name": "edited"}},
                {"state": {"name": "fileSystem", "path": "/src/alpha"}}
                """#) == ["/src/alpha", "/src/edited", "/src/zeta"])
        #expect(throws: HostBuildFingerprint.Unavailable(reason: "\(file) lists a dependency in a state this does not know")) {
            try state(#"{"state": {"name": "somethingNew"}}"#)
        }
        #expect(throws: HostBuildFingerprint.Unavailable(reason: "\(file) is in a format this does not know")) {
            try state("", version: 99)
        }
    }
}
