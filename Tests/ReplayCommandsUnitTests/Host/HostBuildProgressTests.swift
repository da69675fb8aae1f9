import Foundation
import Testing

@testable import ReplayCommands

/// The host build's progress comes from the `[done/total]` steps `swift build` prints.
@Suite struct HostBuildProgressTests {
    @Test func theLastStepCounterOfAChunkOfBuildOutputIsHowFarTheBuildIs() {
        let chunk = Data("Building for production...\n[12/170] Compiling A a.swift\n[13/170] Compiling A b.swift\nwarning: x [1/2]\n".utf8)
        #expect(HostBuild.lastStep(in: chunk)! == (13, 170))
        #expect(HostBuild.lastStep(in: Data("Build complete!\n[x/y] nothing\n".utf8)) == nil)
    }
}
