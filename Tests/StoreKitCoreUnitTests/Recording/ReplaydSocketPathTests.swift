import Foundation
import StoreKitCore
import StoreKitSystem
import StoreKitTestFixtures
import Testing

@Suite struct ReplaydSocketPathTests {
    static let container = "/Users/ana/Library/Developer/CoreSimulator/Devices/5E1C/data/Containers/Data/Application/9A2F"

    @Test func inTheSimulatorTheMacUsersSocketIsUsedNotTheContainers() {
        // Given the simulator's environment: HOME is the app's container, SIMULATOR_HOST_HOME the Mac user's home
        let environment = ["SIMULATOR_HOST_HOME": "/Users/ana", "HOME": Self.container]

        // Then the path is the one the Mac's replayd listens at by default (it has no XDG_RUNTIME_DIR)
        #expect(ReplaydSocketPath.resolve(environment: environment) == "/Users/ana/.replayd/replayd.sock")
        #expect(
            ReplaydSocketPath.resolve(environment: environment)
                == ReplaydSocketPath.resolve(environment: ["HOME": "/Users/ana"]))
    }

    @Test func eachEnvironmentHasItsPath() {
        let cases: [(environment: [String: String], path: String)] = [
            // REPLAYD_SOCKET wins everywhere, the simulator included
            (
                [
                    "REPLAYD_SOCKET": "/tmp/r.sock", "SIMULATOR_HOST_HOME": "/Users/ana",
                    "XDG_RUNTIME_DIR": "/run/user/501", "HOME": Self.container,
                ],
                "/tmp/r.sock"
            ),
            // the simulator: the Mac user's home, before a runtime folder
            (["SIMULATOR_HOST_HOME": "/Users/ana", "HOME": Self.container], "/Users/ana/.replayd/replayd.sock"),
            (
                ["SIMULATOR_HOST_HOME": "/Users/ana", "XDG_RUNTIME_DIR": "/run/user/501", "HOME": Self.container],
                "/Users/ana/.replayd/replayd.sock"
            ),
            // Linux
            (["XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/ana"], "/run/user/1000/replayd/replayd.sock"),
            // macOS
            (["HOME": "/Users/ana"], "/Users/ana/.replayd/replayd.sock"),
            // an empty variable counts as unset
            (
                ["REPLAYD_SOCKET": "", "SIMULATOR_HOST_HOME": "", "XDG_RUNTIME_DIR": "", "HOME": "/home/ana"],
                "/home/ana/.replayd/replayd.sock"
            ),
        ]
        for (environment, path) in cases {
            #expect(ReplaydSocketPath.resolve(environment: environment) == path, "\(environment)")
        }
    }
}

@Suite struct UnixSocketTransportSocketPathLengthTests {
    /// A socket path of 200 bytes under /tmp, longer than `sun_path` holds on any platform.
    static let longPath = "/tmp/" + String(repeating: "d", count: 190) + ".sock"

    static var expectedMessage: String {
        let limit = UnixSocketAddress.maxPathBytes
        return "the socket path '\(longPath)' is 200 bytes long, and a Unix socket path (sun_path) holds at most "
            + "\(limit) bytes on this system; set REPLAYD_SOCKET to a shorter path (and start replayd with the same)"
    }

    @Test func aPathTooLongForSunPathFailsEveryStartWithAnErrorNamingItAndReplaydSocket() {
        // Given a transport to a socket path of 200 bytes
        #expect(Self.longPath.utf8.count == 200)
        let transport = UnixSocketTransport(path: Self.longPath, timeout: 1, firstRetryDelay: 60)

        // When it is started twice (the second inside the backoff a failed connection would start)
        for _ in 0..<2 {
            // Then each start fails with the path, its length, the limit and REPLAYD_SOCKET
            #expect {
                try transport.start(header: Array("{}\n".utf8))
            } throws: { error in
                let failure = error as? UnixSocketTransport.Failure
                return failure
                    == .socketPathTooLong(path: Self.longPath, bytes: 200, limit: UnixSocketAddress.maxPathBytes)
                    && failure?.description == Self.expectedMessage
            }
        }
    }

    @Test func aRecorderWithAPathTooLongKeepsTheAppRunningAndSaysWhy() {
        // Given a store recording to a socket path of 200 bytes
        let store = Store(initialState: Tally.State(), reducer: Tally.reducer)
        let recorder = store.startRecording(
            .init(storeID: "tally", app: AppInfo(name: "T")), to: UnixSocketTransport(path: Self.longPath))

        // When the app dispatches and the recorder finishes
        store.dispatch(.add(1))
        let statistics = recorder.finish(timeout: .seconds(60))

        // Then the app's state moved on, the action is counted as lost with the transport, and the error says why
        #expect(store.state.total == 1)
        #expect(statistics.isFinished)
        #expect(statistics.droppedTransportFailed == 1)
        #expect(statistics.lastError == Self.expectedMessage)
    }
}
